import type { FailedFileEntry, TaskData } from '../../api/types.js';

/** A result entry for one file is either the mode's item or a failed-file entry. */
export function isFailedEntry(x: unknown): x is FailedFileEntry {
  return !!x && typeof x === 'object' && (x as { status?: unknown }).status === 'FAILED' && 'err_code' in x;
}

/** The first result of a v1 task (one file per task in this workspace), or v2's single result. */
export function firstResult(data: TaskData | undefined): unknown {
  return data?.results?.[0] ?? data?.result;
}
