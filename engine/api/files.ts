import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { DocError } from '../core/errors.js';
import { ACCEPTED_FORMATS } from '../formats/detect-format.js';
import type { DocumentRow } from '../store/document-store.js';
import { requireKey } from './auth.js';
import type { EngineServices } from './engine-services.js';
import { discardUnused } from './multipart-upload.js';
import { authorizeSubmit, queueUploadTask, readUpload } from './submit-task.js';
import { documentFilePath } from './task-views.js';

const FILES_MAX = 50;

/**
 * The chat library's files (extension): POST /v1/files adds documents (read in a worker, then indexed),
 * GET /v1/files lists the caller's documents (the owner sees all), GET/DELETE /v1/files/:doc_id.
 */
export function registerFileRoutes(app: FastifyInstance, s: EngineServices): void {
  const view = (d: DocumentRow) => ({
    doc_id: d.doc_id,
    file_name: d.file_name,
    status: d.status,
    page_count: d.page_count,
    created_at: Math.floor(d.created_at / 1000),
    ...(d.status === 'SUCCESS' ? { url: s.ctx.links.sign(documentFilePath(d.doc_id)) } : {}),
    ...(d.status === 'FAILED' ? { err_code: d.err_code, err_message: d.err_message } : {}),
  });

  app.post('/v1/files', async (req) => {
    const key = authorizeSubmit(s, req);
    const upload = await readUpload(s, req, FILES_MAX);
    if (!s.pipelineBuilt('parse')) {
      discardUnused(upload.files, s.blobs, s.tasks);
      throw new DocError('INVALID_PARAMETER', 'documents cannot be added: the parse engine is not part of this build');
    }
    const taskId = `files_${ulid()}`;
    const docIds = upload.files.map(() => `doc_${ulid()}`);
    // rows first, so the library listing shows them while they are read
    queueUploadTask(s, upload, { id: taskId, resource: 'files', key, mode: 'pro', params: { docIds } }, ACCEPTED_FORMATS.parse);
    const files = s.tasks.files(taskId);
    for (const f of files) {
      s.documents.add({ docId: docIds[f.idx]!, keyId: key.id, fileName: f.file_name, blobHash: upload.files[f.idx]!.hash, taskId, status: f.status === 'FAILED' ? 'FAILED' : 'PROCESSING' });
      if (f.status === 'FAILED') s.documents.setStatus(docIds[f.idx]!, 'FAILED', 0, { code: f.err_code ?? 'INVALID_DOCUMENT', message: f.err_message ?? '' });
    }
    return { success: true, data: { documents: docIds.map((id) => view(s.documents.get(id)!)) } };
  });

  app.get('/v1/files', async (req) => {
    const key = requireKey(s.ctx.keys, req);
    return { success: true, data: { documents: s.documents.list(key.owner ? null : key.id).map(view) } };
  });

  const own = (req: Parameters<typeof requireKey>[1], docId: string): DocumentRow => {
    const key = requireKey(s.ctx.keys, req);
    const d = s.documents.get(docId);
    if (!d || (d.key_id !== key.id && !key.owner)) throw new DocError('EMPTY_TASK', `no document ${docId.slice(0, 80)}`);
    return d;
  };

  app.get<{ Params: { doc_id: string } }>('/v1/files/:doc_id', async (req) => ({ success: true, data: view(own(req, req.params.doc_id)) }));

  app.delete<{ Params: { doc_id: string } }>('/v1/files/:doc_id', async (req) => {
    const d = own(req, req.params.doc_id);
    s.ctx.library.removeDocument(d.doc_id);
    s.documents.delete(d.doc_id);
    if (!s.tasks.blobInUse(d.blob_hash)) s.blobs.delete(d.blob_hash);
    return { success: true, data: { doc_id: d.doc_id, deleted: true } };
  });
}
