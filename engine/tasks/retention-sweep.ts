import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BlobStore } from '../store/blob-store.js';
import type { TaskStore } from '../store/task-store.js';
import { deleteTask } from './task-deletion.js';

/**
 * Results and uploads are kept `retentionDays` (30 by default); older finished tasks and their files go.
 * Stale temp files (an upload cut off by a crash) go after a day.
 */
export function sweepRetention(tasks: TaskStore, blobs: BlobStore, retentionDays: number, now = Date.now()): number {
  const cutoff = now - retentionDays * 86_400_000;
  let n = 0;
  for (const t of tasks.olderThan(cutoff)) if (deleteTask(tasks, blobs, t.id)) n++;
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
