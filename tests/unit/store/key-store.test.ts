import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../engine/store/database.js';
import { KeyStore } from '../../../engine/store/key-store.js';
import { UsageLedger } from '../../../engine/store/usage-ledger.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-keys-'));
  db = openDatabase(dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('KeyStore', () => {
  it('stores only the sha256 of a key and authenticates the raw key', () => {
    const keys = new KeyStore(db);
    const { key, record } = keys.create('alice', { balance: 10 });
    const row = db.prepare('SELECT * FROM keys WHERE id = ?').get(record.id) as { hash: string; prefix: string };
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(keys.authenticate(key)).toEqual({ id: record.id, name: 'alice', balance: 10, owner: false });
    expect(keys.authenticate(key + 'x')).toBe(null);
    expect(keys.authenticate(undefined)).toBe(null);
    expect(keys.authenticate('')).toBe(null);
  });

  it('revoked keys fail; the owner key file is 0600 and stable across starts', () => {
    const keys = new KeyStore(db);
    const { key, record } = keys.create('bob');
    expect(keys.revoke(record.id)).toBe(true);
    expect(keys.authenticate(key)).toBe(null);
    expect(keys.revoke('key_missing')).toBe(false);
    const owner = keys.ensureOwnerKey(dir);
    expect(statSync(join(dir, 'owner.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'owner.key'), 'utf8').trim()).toBe(owner);
    expect(keys.ensureOwnerKey(dir)).toBe(owner);
    expect(keys.authenticate(owner)?.owner).toBe(true);
    expect(keys.list().filter((k) => k.owner)).toHaveLength(1);
    const ownerId = keys.list().find((k) => k.owner)!.id;
    expect(() => keys.revoke(ownerId)).toThrow(/owner/);
  });

  it('registerRaw (DOCAI_API_KEY) is idempotent and unlimited', () => {
    const keys = new KeyStore(db);
    const a = keys.registerRaw('env-key-1', 'DOCAI_API_KEY', null, false);
    const b = keys.registerRaw('env-key-1', 'DOCAI_API_KEY', null, false);
    expect(a.id).toBe(b.id);
    expect(keys.authenticate('env-key-1')?.balance).toBe(null);
  });
});

describe('UsageLedger', () => {
  it('debits pages, may go negative once, and records the ledger newest first', () => {
    const keys = new KeyStore(db);
    const usage = new UsageLedger(db);
    const { record } = keys.create('metered', { balance: 3 });
    usage.debit(record.id, 2, 'parse', 'b_parse_1');
    expect(usage.balance(record.id)).toBe(1);
    usage.debit(record.id, 5, 'extract', 'b_extract_2');
    expect(usage.balance(record.id)).toBe(-4);
    expect(usage.ledger(record.id).map((e) => [e.kind, e.pages, e.ref])).toEqual([
      ['extract', 5, 'b_extract_2'],
      ['parse', 2, 'b_parse_1'],
    ]);
    expect(usage.totalPages(record.id)).toBe(7);
    const unlimited = keys.registerRaw('u', 'u', null, false);
    usage.debit(unlimited.id, 9, 'chat', 'chat_1');
    expect(usage.balance(unlimited.id)).toBe(null);
  });
});
