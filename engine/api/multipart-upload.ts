import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { DocError } from '../core/errors.js';
import type { DocumentFormat } from '../core/page.js';
import { detectUploadFormat } from './upload-format.js';
import { BlobTooLargeError, type BlobStore } from '../store/blob-store.js';
import type { TaskStore } from '../store/task-store.js';
import { cleanFileName } from './upload-names.js';

export const MAX_FILE_BYTES = 100 * 1024 * 1024;
export const MAX_FIELD_BYTES = 1024 * 1024;

export interface UploadedFile {
  fileName: string;
  hash: string;
  size: number;
  format: DocumentFormat | null;
}

export interface Upload {
  files: UploadedFile[];
  fields: Record<string, string>;
}

/**
 * Read a multipart request, streaming each file straight into the blob store (never a whole file in
 * memory). Accepts `files` and `files[]`. Over 100 MB per file: 413. More than `maxFiles`: 400.
 */
export async function receiveUpload(req: FastifyRequest, blobs: BlobStore, tasks: TaskStore, maxFiles: number): Promise<Upload> {
  if (!req.isMultipart()) throw new DocError('MISSING_FILE', 'send the files as multipart/form-data in the field "files"');
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_FILE_BYTES, files: maxFiles + 1, fieldSize: MAX_FIELD_BYTES, fields: 20, parts: maxFiles + 21 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'files' && part.fieldname !== 'files[]' && part.fieldname !== 'file') {
          part.file.resume();
          continue;
        }
        if (files.length >= maxFiles) {
          part.file.resume();
          throw new DocError('INVALID_PARAMETER', `too many files: at most ${maxFiles} per task`);
        }
        let stored: { hash: string; size: number };
        try {
          stored = await blobs.putStream(part.file, MAX_FILE_BYTES);
        } catch (err) {
          if (err instanceof BlobTooLargeError || (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new DocError('INVALID_PARAMETER', `${cleanFileName(part.filename)} is larger than 100 MB`, 413);
          }
          throw err;
        }
        if (part.file.truncated) throw new DocError('INVALID_PARAMETER', `${cleanFileName(part.filename)} is larger than 100 MB`, 413);
        const fileName = cleanFileName(part.filename);
        const format = stored.size === 0 ? null : await detectUploadFormat(blobs.pathOf(stored.hash), fileName);
        files.push({ fileName, hash: stored.hash, size: stored.size, format });
      } else {
        if (part.valueTruncated) throw new DocError('INVALID_PARAMETER', `form field ${part.fieldname} is larger than 1 MB`);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (err) {
    discardUnused(files, blobs, tasks);
    const e = err as NodeJS.ErrnoException & { statusCode?: number };
    if (e.code === 'FST_FILES_LIMIT') throw new DocError('INVALID_PARAMETER', `too many files: at most ${maxFiles} per task`);
    // DocErrors, framework limit errors (mapped by the error handler) and system errors (disk) pass through;
    // anything else is the multipart parser rejecting a malformed body (cut off, no boundary, bad headers).
    if (err instanceof DocError || e.statusCode !== undefined || (typeof e.syscall === 'string' && typeof e.code === 'string') || e.code === 'ENOSPC') throw err;
    throw new DocError('INVALID_PARAMETER', `the multipart body is malformed: ${e.message}`);
  }
  if (files.length === 0 && Object.keys(fields).length === 0) throw new DocError('EMPTY_TASK', 'the request is empty: send files and mode as multipart/form-data', 400);
  return { files, fields };
}

/** Drop uploaded blobs that no task references (a refused request keeps nothing). */
export function discardUnused(files: UploadedFile[], blobs: BlobStore, tasks: TaskStore): void {
  for (const f of files) if (!tasks.blobInUse(f.hash)) blobs.delete(f.hash);
}
