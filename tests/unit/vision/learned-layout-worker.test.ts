import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ParseNode } from '../../../engine/core/results.js';
import { BlobStore } from '../../../engine/store/blob-store.js';
import { WorkerPool } from '../../../engine/tasks/worker-pool.js';
import type { ParseOutcome } from '../../../engine/tasks/worker-jobs.js';
import { PAGE_TEXT } from '../../fixtures/make-layout-models.js';

/** The pool forks the compiled child (npm test builds first): the parse job runs the learned layout step there. */
const CHILD = resolve('dist/engine/tasks/worker-child.js');
const GEN = resolve('tests/fixtures/generated');
const PDF = join(GEN, 'learned-layout.pdf');

let dir: string | null = null;
let pool: WorkerPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function parseIn(modelDir: string | null): Promise<ParseNode[]> {
  dir = mkdtempSync(join(tmpdir(), 'docai-learned-pool-'));
  const blobs = new BlobStore(dir);
  const { hash } = await blobs.putFile(PDF);
  pool = new WorkerPool({ size: 1, heapMb: 512, dataDir: dir, modelDir, childPath: CHILD });
  const out = await pool.run<ParseOutcome>({ type: 'parse', file: { path: blobs.pathOf(hash), fileName: 'learned-layout.pdf', blobHash: hash }, accepted: null, mode: 'pro', withIndexParse: false }, 60_000);
  return (out.result as { nodes: ParseNode[] }).nodes;
}

describe('worker parse job with a layout model in the model folder', () => {
  it('uses the model when the pool is given the folder, the rules when it is not', async () => {
    expect(existsSync(CHILD)).toBe(true);
    const learned = await parseIn(join(GEN, 'layout-models', 'paddle'));
    expect(learned.find((n) => n.text === PAGE_TEXT.title)?.type).toBe('Title');
    expect(learned.find((n) => n.text.includes('Alice Moreau'))?.type).toBe('Table');
    await pool!.close();
    pool = null;
    const rules = await parseIn(null);
    expect(rules.find((n) => n.text === PAGE_TEXT.title)?.type).toBe('Text');
  });
});
