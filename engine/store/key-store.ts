import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ulid } from 'ulid';
import type { KeyRecord, KeyService } from '../api/context.js';
import type { Db } from './database.js';

export interface KeyListing extends KeyRecord {
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
}

interface KeyRow {
  id: string;
  name: string;
  hash: string;
  prefix: string;
  balance: number | null;
  owner: number;
  created_at: number;
  revoked_at: number | null;
}

function hashKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

function newRawKey(): string {
  return `dk-${randomBytes(24).toString('base64url')}`;
}

/**
 * API keys, stored as sha256 hashes; the raw key is shown once, at creation. Lookup is by hash
 * (the hash of a guess reveals nothing about stored keys), then the stored hash is compared in constant time.
 */
export class KeyStore implements KeyService {
  constructor(private readonly db: Db) {}

  authenticate(raw: string | undefined): KeyRecord | null {
    if (typeof raw !== 'string' || raw.length === 0 || raw.length > 512) return null;
    const h = hashKey(raw);
    const row = this.db.prepare('SELECT * FROM keys WHERE hash = ?').get(h) as KeyRow | undefined;
    if (!row) return null;
    if (!timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(h, 'hex'))) return null;
    if (row.revoked_at !== null) return null;
    return toRecord(row);
  }

  create(name: string, opts: { balance?: number | null; owner?: boolean } = {}): { key: string; record: KeyListing } {
    const raw = newRawKey();
    const record = this.insert(raw, name, opts.balance ?? null, opts.owner ?? false);
    return { key: raw, record };
  }

  /** Register a key whose raw value is given (owner.key, DOCAI_API_KEY); updates it when already known. */
  registerRaw(raw: string, name: string, balance: number | null, owner: boolean): KeyListing {
    const row = this.db.prepare('SELECT * FROM keys WHERE hash = ?').get(hashKey(raw)) as KeyRow | undefined;
    if (row) {
      this.db.prepare('UPDATE keys SET balance = ?, owner = ?, revoked_at = NULL WHERE id = ?').run(balance, owner ? 1 : 0, row.id);
      return this.get(row.id)!;
    }
    return this.insert(raw, name, balance, owner);
  }

  private insert(raw: string, name: string, balance: number | null, owner: boolean): KeyListing {
    const id = `key_${ulid()}`;
    this.db
      .prepare('INSERT INTO keys (id, name, hash, prefix, balance, owner, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, name, hashKey(raw), raw.slice(0, 6), balance, owner ? 1 : 0, Date.now());
    return this.get(id)!;
  }

  get(id: string): KeyListing | null {
    const row = this.db.prepare('SELECT * FROM keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row ? toListing(row) : null;
  }

  list(): KeyListing[] {
    return (this.db.prepare('SELECT * FROM keys ORDER BY created_at, id').all() as KeyRow[]).map(toListing);
  }

  /** Returns false when there is no such key. The owner key cannot be revoked (it would lock the workspace out). */
  revoke(id: string): boolean {
    const row = this.db.prepare('SELECT * FROM keys WHERE id = ?').get(id) as KeyRow | undefined;
    if (!row) return false;
    if (row.owner) throw new Error('the owner key cannot be revoked');
    this.db.prepare('UPDATE keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(Date.now(), id);
    return true;
  }

  /**
   * The owner key: `<dataDir>/owner.key` (mode 0600), made at first start. Returns the raw key.
   */
  ensureOwnerKey(dataDir: string): string {
    const file = join(dataDir, 'owner.key');
    let raw: string;
    if (existsSync(file)) {
      raw = readFileSync(file, 'utf8').trim();
    } else {
      raw = newRawKey();
      writeFileSync(file, raw + '\n', { mode: 0o600, flag: 'wx' });
    }
    chmodSync(file, 0o600);
    this.registerRaw(raw, 'owner', null, true);
    return raw;
  }
}

function toRecord(row: KeyRow): KeyRecord {
  return { id: row.id, name: row.name, balance: row.balance, owner: row.owner === 1 };
}

function toListing(row: KeyRow): KeyListing {
  return { ...toRecord(row), prefix: row.prefix, createdAt: row.created_at, revokedAt: row.revoked_at };
}
