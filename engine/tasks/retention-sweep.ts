import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BlobStore } from '../store/blob-store.js';
import type { TaskStore } from '../store/task-store.js';
import { deleteTask } from './task-deletion.js';

/**
 * Results and uploads are kept `retentionDays` (30 by default); older finished tasks and their files go.
 * Stale temp files (an upload cut off by a crash) and unreferenced blobs go after a day.
 */
export function sweepRetention(tasks: TaskStore, blobs: BlobStore, retentionDays: number, now = Date.now()): number {
  const cutoff = now - retentionDays * 86_400_000;
  let n = 0;
  for (const t of tasks.olderThan(cutoff)) if (deleteTask(tasks, blobs, t.id)) n++;
  // blobs nothing references (a crash between storing a blob and recording it) go after a day too
  try {
    for (const shard of readdirSync(blobs.root)) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const hash of readdirSync(join(blobs.root, shard))) {
        if (!BlobStore.isHash(hash)) continue;
        const p = join(blobs.root, shard, hash);
        if (now - statSync(p).mtimeMs > 86_400_000 && !tasks.blobInUse(hash)) blobs.delete(hash);
      }
    }
  } catch {
    // a blob removed while sweeping; the next sweep sees the rest
  }
  try {
    for (const name of readdirSync(blobs.tmpDir)) {
      const p = join(blobs.tmpDir, name);
      if (now - statSync(p).mtimeMs > 86_400_000) rmSync(p, { force: true, recursive: true });
    }
  } catch {
    // the temp folder may be gone; nothing to sweep
  }
  return n;
}
