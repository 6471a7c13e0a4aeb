import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refuseUnbuiltMode } from '../../../engine/api/submit-task.js';
import type { EngineServices } from '../../../engine/api/engine-services.js';
import { BlobStore } from '../../../engine/store/blob-store.js';
import { openDatabase, type Db } from '../../../engine/store/database.js';
import { TaskStore } from '../../../engine/store/task-store.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-unbuilt-'));
  db = openDatabase(dir);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a mode whose engine is not built', () => {
  it('is 400 INVALID_PARAMETER naming the mode, and the upload is not kept', () => {
    const blobs = new BlobStore(dir);
    const tasks = new TaskStore(db);
    const hash = blobs.putBuffer('%PDF-1.7 upload');
    const services = { blobs, tasks, pipelineBuilt: (w: string) => w !== 'extract' } as unknown as EngineServices;
    const upload = { files: [{ fileName: 'a.pdf', hash, size: 15, format: 'pdf' as const }], fields: {} };
    expect(() => refuseUnbuiltMode(services, upload, 'extract', 'bl-extract')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER', status: 400, message: expect.stringContaining('bl-extract') }));
    expect(blobs.has(hash)).toBe(false);
    expect(tasks.unfinished()).toEqual([]);
    const kept = blobs.putBuffer('%PDF-1.7 other');
    expect(() => refuseUnbuiltMode(services, { files: [{ ...upload.files[0]!, hash: kept }], fields: {} }, 'parse', 'lite')).not.toThrow();
    expect(blobs.has(kept)).toBe(true);
  });
});
