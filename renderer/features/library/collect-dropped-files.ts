import { ACCEPTED_EXT, extensionOf } from './file-kind.js';

/**
 * Files from a drop, folders walked recursively (webkitGetAsEntry), keeping only formats the API accepts.
 * Entries must be taken synchronously inside the drop handler, before any await.
 */
export async function collectDroppedFiles(dt: DataTransfer): Promise<File[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(dt.files ?? []));
  const out: File[] = [...loose];
  for (const e of entries) await walk(e, out);
  return out.filter((f) => ACCEPTED_EXT.has(extensionOf(f.name)));
}

async function walk(entry: FileSystemEntry, out: File[]): Promise<void> {
  if (entry.isFile) {
    out.push(await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej)));
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches; read until an empty batch
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out);
  }
}
