import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../engine/store/blob-store.js';
import { WorkerPool } from '../../../engine/tasks/worker-pool.js';
import type { ReadOutcome } from '../../../engine/tasks/worker-jobs.js';

/** The pool forks the compiled child (npm test builds first). */
const CHILD = resolve('dist/engine/tasks/worker-child.js');
const PDF = resolve('tests/fixtures/generated/foundation-title.pdf');

let dir: string;
let pool: WorkerPool | null = null;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-pool-'));
});
afterEach(async () => {
  await pool?.close();
  pool = null;
  delete process.env.DOCAI_FAULT;
  rmSync(dir, { recursive: true, force: true });
});

describe('WorkerPool', () => {
  it('reads a file in a child, caches its page model by content hash, survives a child crash', async () => {
    expect(existsSync(CHILD)).toBe(true);
    const blobs = new BlobStore(dir);
    const { hash } = await blobs.putFile(PDF);
    process.env.DOCAI_FAULT = 'worker-crash:boom';
    pool = new WorkerPool({ size: 1, heapMb: 512, dataDir: dir, childPath: CHILD });
    const file = { path: blobs.pathOf(hash), fileName: 'ok.pdf', blobHash: hash };
    const r = await pool.run<ReadOutcome>({ type: 'read', file, accepted: ['pdf'] }, 30_000);
    expect(r).toEqual({ format: 'pdf', pageCount: 1 });
    expect(JSON.parse(blobs.readDerived(hash, 'pages-v1.json')!).doc.pages).toHaveLength(1);
    const pid = pool.pids()[0];
    await expect(pool.run({ type: 'read', file: { ...file, fileName: 'boom.pdf' }, accepted: null }, 30_000)).rejects.toThrow(/signal SIGKILL/);
    const again = await pool.run<ReadOutcome>({ type: 'read', file, accepted: ['pdf'] }, 30_000);
    expect(again.pageCount).toBe(1);
    expect(pool.pids()[0]).not.toBe(pid);
    await expect(pool.run({ type: 'read', file, accepted: ['png'] }, 30_000)).rejects.toMatchObject({ code: 'INVALID_DOCUMENT', message: 'PDF files are not accepted by this endpoint' });
  });

  it('kills a job that passes its timeout and fails only that job', async () => {
    const blobs = new BlobStore(dir);
    const { hash } = await blobs.putFile(PDF);
    process.env.DOCAI_FAULT = 'worker-hang:slow';
    pool = new WorkerPool({ size: 1, heapMb: 512, dataDir: dir, childPath: CHILD });
    const file = { path: blobs.pathOf(hash), fileName: 'slow.pdf', blobHash: hash };
    await expect(pool.run({ type: 'read', file, accepted: null }, 500)).rejects.toThrow('processing timed out after 1 s');
    const ok = await pool.run<ReadOutcome>({ type: 'read', file: { ...file, fileName: 'ok.pdf' }, accepted: null }, 30_000);
    expect(ok.format).toBe('pdf');
  });
});
