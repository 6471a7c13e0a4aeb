import type { UsageService } from '../api/context.js';
import type { Db } from './database.js';

export type UsageKind = 'parse' | 'extract' | 'mask' | 'chat' | 'files';

export interface LedgerEntry {
  kind: UsageKind;
  pages: number;
  ref: string;
  created_at: number;
}

/** Balance in pages per key (null = unlimited) and the ledger of every debit. */
export class UsageLedger implements UsageService {
  constructor(private readonly db: Db) {}

  balance(keyId: string): number | null {
    const row = this.db.prepare('SELECT balance FROM keys WHERE id = ?').get(keyId) as { balance: number | null } | undefined;
    return row ? row.balance : 0;
  }

  /** A key may be debited below zero once (pages of a finished task are always charged). */
  debit(keyId: string, pages: number, kind: UsageKind, ref: string): void {
    const n = Math.max(0, Math.ceil(pages));
    this.db.transaction(() => {
      this.db.prepare('UPDATE keys SET balance = balance - ? WHERE id = ? AND balance IS NOT NULL').run(n, keyId);
      this.db.prepare('INSERT INTO usage_ledger (key_id, kind, pages, ref, created_at) VALUES (?, ?, ?, ?, ?)').run(keyId, kind, n, ref, Date.now());
    })();
  }

  ledger(keyId: string, limit = 200): LedgerEntry[] {
    return this.db
      .prepare('SELECT kind, pages, ref, created_at FROM usage_ledger WHERE key_id = ? ORDER BY seq DESC LIMIT ?')
      .all(keyId, limit) as LedgerEntry[];
  }

  totalPages(keyId: string): number {
    const row = this.db.prepare('SELECT COALESCE(SUM(pages), 0) AS n FROM usage_ledger WHERE key_id = ?').get(keyId) as { n: number };
    return row.n;
  }
}
