import type { FastifyRequest } from 'fastify';
import { DocError } from '../core/errors.js';
import type { DocumentFormat } from '../core/page.js';
import type { NewTaskFile, TaskResource } from '../store/task-store.js';
import type { KeyRecord } from './context.js';
import type { EngineServices } from './engine-services.js';
import { discardUnused, receiveUpload, type Upload } from './multipart-upload.js';
import { requireKey } from './auth.js';

const LABEL: Partial<Record<DocumentFormat, string>> = { jpg: 'JPEG', tiff: 'TIFF' };

/** Auth, then balance: a key needs at least 1 page left to submit anything (402 otherwise, nothing queued). */
export function authorizeSubmit(s: EngineServices, req: FastifyRequest): KeyRecord {
  const key = requireKey(s.ctx.keys, req);
  const balance = s.ctx.usage.balance(key.id);
  if (balance !== null && balance < 1) throw new DocError('INSUFFICIENT_BALANCE', `the balance of this key is ${balance} pages; at least 1 is needed`);
  return key;
}

export async function readUpload(s: EngineServices, req: FastifyRequest, maxFiles: number): Promise<Upload> {
  return receiveUpload(req, s.blobs, s.tasks, maxFiles);
}

/**
 * Queue a task over uploaded files. Files whose content is not an accepted type are stored already
 * failed; if no file is acceptable the request fails with 422 and nothing is kept.
 */
export function queueUploadTask(
  s: EngineServices,
  upload: Upload,
  task: { id: string; resource: TaskResource; key: KeyRecord; mode: string; params: Record<string, unknown> },
  accepted: ReadonlySet<DocumentFormat>,
): void {
  if (upload.files.length === 0) throw new DocError('MISSING_FILE', 'no file uploaded (form field "files")');
  const files: NewTaskFile[] = upload.files.map((f) => {
    if (f.size === 0) return { fileName: f.fileName, inputHash: null, format: null, failed: { code: 'INVALID_DOCUMENT', message: `${f.fileName}: the file is empty` } };
    if (!f.format) return { fileName: f.fileName, inputHash: f.hash, format: null, failed: { code: 'INVALID_DOCUMENT', message: `${f.fileName}: the file's content is not a supported document format` } };
    if (!accepted.has(f.format)) {
      return { fileName: f.fileName, inputHash: f.hash, format: f.format, failed: { code: 'INVALID_DOCUMENT', message: `${f.fileName}: ${LABEL[f.format] ?? f.format.toUpperCase()} files are not accepted by this endpoint` } };
    }
    return { fileName: f.fileName, inputHash: f.hash, format: f.format };
  });
  if (files.every((f) => f.failed)) {
    discardUnused(upload.files, s.blobs, s.tasks);
    const first = files[0]!.failed!;
    throw new DocError('INVALID_DOCUMENT', files.length === 1 ? first.message : `no file of an accepted type: ${first.message}`);
  }
  s.tasks.create({ id: task.id, resource: task.resource, keyId: task.key.id, mode: task.mode, params: { ...task.params, accepted: [...accepted] } }, files);
  // refused files keep no upload
  for (const [i, f] of files.entries()) if (f.failed && f.inputHash) {
    s.tasks.clearInput(task.id, i);
    if (!s.tasks.blobInUse(f.inputHash)) s.blobs.delete(f.inputHash);
  }
  s.engine.schedule(task.id);
}

/** A mode whose engine is not in this build: 400 naming the mode; the upload is dropped. */
export function refuseUnbuiltMode(s: EngineServices, upload: Upload, which: 'parse' | 'extract' | 'mask', mode: string): void {
  if (s.pipelineBuilt(which)) return;
  discardUnused(upload.files, s.blobs, s.tasks);
  throw new DocError('INVALID_PARAMETER', `mode ${mode} is not available: the ${which} engine is not part of this build`);
}
