import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DocError } from '../core/errors.js';
import { BlobStore } from '../store/blob-store.js';
import type { EngineServices } from './engine-services.js';

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff',
  gif: 'image/gif', webp: 'image/webp', txt: 'text/plain; charset=utf-8', html: 'text/plain; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const forbidden = (message: string) => new DocError('API_UNAUTHORIZED', message, 403);

/**
 * The `{file_url}` route: `/files/masked/<task>/<name>` (masked copies) and `/files/docs/<doc>` (cited
 * documents). A link is valid only with its signature and before its expiry (403 otherwise); what it
 * serves is always a blob looked up by id in SQLite, never a path taken from the request.
 */
export function registerFileLinkRoutes(app: FastifyInstance, s: EngineServices): void {
  const check = (req: FastifyRequest) => {
    const path = req.url.split('?')[0]!;
    const q = req.query as { exp?: unknown; sig?: unknown };
    const v = s.linkSigner.verify(path, q.exp, q.sig);
    if (v === 'expired') throw forbidden('this link has expired');
    if (v !== 'ok') throw forbidden('this link is not valid');
  };
  const send = (reply: FastifyReply, hash: string | null, name: string) => {
    if (!hash || !BlobStore.isHash(hash) || !s.blobs.has(hash)) throw new DocError('EMPTY_TASK', 'the file is no longer stored');
    const ext = name.toLowerCase().split('.').pop() ?? '';
    reply.header('Content-Type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
    reply.header('Content-Length', String(s.blobs.size(hash)));
    reply.header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Cache-Control', 'private, no-store');
    return reply.send(createReadStream(s.blobs.pathOf(hash)));
  };

  app.get<{ Params: { task_id: string; name: string } }>('/files/masked/:task_id/:name', async (req, reply) => {
    check(req);
    const f = s.tasks.files(req.params.task_id).find((x) => x.output_name === req.params.name && x.status === 'SUCCESS');
    return send(reply, f?.output_hash ?? null, req.params.name);
  });

  app.get<{ Params: { doc_id: string } }>('/files/docs/:doc_id', async (req, reply) => {
    check(req);
    const d = s.documents.get(req.params.doc_id);
    const lib = d ? null : s.ctx.library.getDocument(req.params.doc_id);
    return send(reply, d?.blob_hash ?? lib?.blobHash ?? null, d?.file_name ?? lib?.fileName ?? 'document');
  });
}
