import type { BlobStore } from '../store/blob-store.js';
import type { TaskStore } from '../store/task-store.js';

/** Delete a task, its rows and every blob only it referenced (uploads, masked copies). */
export function deleteTask(tasks: TaskStore, blobs: BlobStore, taskId: string): boolean {
  if (!tasks.get(taskId)) return false;
  const files = tasks.delete(taskId);
  const hashes = new Set<string>();
  for (const f of files) {
    if (f.input_hash) hashes.add(f.input_hash);
    if (f.output_hash) hashes.add(f.output_hash);
  }
  for (const h of hashes) if (!tasks.blobInUse(h)) blobs.delete(h);
  return true;
}
