import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../engine/store/database.js';
import { TaskStore } from '../../../engine/store/task-store.js';
import { BlobStore } from '../../../engine/store/blob-store.js';
import { sweepRetention } from '../../../engine/tasks/retention-sweep.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-tasks-'));
  db = openDatabase(dir);
});
afterEach(() => {
  delete process.env.DOCAI_FAULT;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('TaskStore', () => {
  it('migrates to the current schema in WAL mode', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
  });

  it('keeps state across a reopen: unfinished tasks and their pending files', () => {
    const tasks = new TaskStore(db);
    tasks.create({ id: 'b_parse_A', resource: 'parse', keyId: 'k', mode: 'lite', params: { mode: 'lite' } }, [
      { fileName: 'a.pdf', inputHash: 'a'.repeat(64), format: 'pdf' },
      { fileName: 'b.exe', inputHash: null, format: null, failed: { code: 'INVALID_DOCUMENT', message: 'nope' } },
    ]);
    tasks.fileSucceeded('b_parse_A', 0, { result: { file_name: 'a.pdf', blocks: [] }, pageCount: 2 });
    db.close();
    db = openDatabase(dir);
    const again = new TaskStore(db);
    expect(again.unfinished().map((t) => t.id)).toEqual(['b_parse_A']);
    const files = again.files('b_parse_A');
    expect(files.map((f) => [f.status, f.page_count])).toEqual([
      ['SUCCESS', 2],
      ['FAILED', 0],
    ]);
    expect(JSON.parse(files[0]!.result!)).toEqual({ file_name: 'a.pdf', blocks: [] });
  });

  it('finish is once only and runs the debit in the same transaction', () => {
    const tasks = new TaskStore(db);
    tasks.create({ id: 't1', resource: 'extract', keyId: 'k', mode: 'docai-extract', params: {} }, [{ fileName: 'a.pdf', inputHash: null, format: 'pdf' }]);
    let debits = 0;
    expect(tasks.finish('t1', { status: 'SUCCESS', pages: 1 }, () => debits++)).toBe(true);
    expect(tasks.finish('t1', { status: 'SUCCESS', pages: 1 }, () => debits++)).toBe(false);
    expect(debits).toBe(1);
    expect(tasks.get('t1')?.status).toBe('SUCCESS');
  });

  it('a failing result write (fault point) leaves the file pending, not half-written', () => {
    const tasks = new TaskStore(db);
    tasks.create({ id: 't2', resource: 'parse', keyId: 'k', mode: 'lite', params: {} }, [{ fileName: 'a.pdf', inputHash: null, format: 'pdf' }]);
    process.env.DOCAI_FAULT = 'result-write:ENOSPC';
    expect(() => tasks.fileSucceeded('t2', 0, { result: { x: 1 }, pageCount: 1 })).toThrow(/ENOSPC/);
    delete process.env.DOCAI_FAULT;
    const f = tasks.file('t2', 0)!;
    expect(f.status).toBe('PENDING');
    expect(f.result).toBe(null);
  });

  it('the retention sweep deletes finished tasks older than the limit with their unshared blobs', () => {
    const tasks = new TaskStore(db);
    const blobs = new BlobStore(dir);
    const shared = blobs.putBuffer('shared');
    const own = blobs.putBuffer('own');
    tasks.create({ id: 'old', resource: 'parse', keyId: 'k', mode: 'lite', params: {} }, [
      { fileName: 'a', inputHash: shared, format: 'pdf' },
      { fileName: 'b', inputHash: own, format: 'pdf' },
    ]);
    tasks.create({ id: 'new', resource: 'parse', keyId: 'k', mode: 'lite', params: {} }, [{ fileName: 'a', inputHash: shared, format: 'pdf' }]);
    tasks.finish('old', { status: 'SUCCESS', pages: 0 });
    db.prepare("UPDATE tasks SET created_at = ? WHERE id = 'old'").run(Date.now() - 31 * 86_400_000);
    expect(sweepRetention(tasks, blobs, 30)).toBe(1);
    expect(tasks.get('old')).toBe(null);
    expect(tasks.get('new')).not.toBe(null);
    expect(blobs.has(own)).toBe(false);
    expect(blobs.has(shared)).toBe(true);
    // an orphan (stored, never recorded) goes once it is a day old; a fresh one stays
    const orphan = blobs.putBuffer('orphan');
    const fresh = blobs.putBuffer('fresh');
    const old = (Date.now() - 2 * 86_400_000) / 1000;
    utimesSync(blobs.pathOf(orphan), old, old);
    sweepRetention(tasks, blobs, 30);
    expect(blobs.has(orphan)).toBe(false);
    expect(blobs.has(fresh)).toBe(true);
    expect(blobs.has(shared)).toBe(true);
  });
});
