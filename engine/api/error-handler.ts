import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DocError } from '../core/errors.js';

const DRAIN_LIMIT = 32 * 1024 * 1024;

/**
 * A request answered before its body was read (too large, refused early): read and drop the rest of the
 * body (up to 32 MB, then the connection is cut) so that the client can finish sending and read the
 * answer. Closing at once instead makes many clients meet a reset (EPIPE) and never see the answer.
 */
function drainBody(req: FastifyRequest, reply: FastifyReply): void {
  reply.removeHeader('connection');
  let drained = 0;
  req.raw.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT) req.raw.destroy();
  });
  req.raw.on('error', () => undefined);
  req.raw.resume();
}

const isChat = (url: string) => url.startsWith('/v1/chat') || url.startsWith('/v1/models');

function openAiError(reply: FastifyReply, status: number, message: string, code: string) {
  return reply.code(status).send({ error: { message, type: 'invalid_request_error', code } });
}

/**
 * One mapping from failures to HTTP: DocError carries its status (engine/core/errors.ts); framework
 * errors (body too large, bad JSON, multipart limits) become the spec's codes. Chat routes answer in
 * OpenAI's error shape. No request headers are ever logged (they carry keys).
 */
export function installErrorHandling(app: FastifyInstance, log: (msg: string) => void): void {
  app.setErrorHandler((err: FastifyError | DocError, req: FastifyRequest, reply: FastifyReply) => {
    if (!req.raw.complete) drainBody(req, reply);
    if (err instanceof DocError) return reply.code(err.status).send(err.toBody());
    const code = (err as FastifyError).code ?? '';
    const status = (err as FastifyError).statusCode ?? 500;
    const chat = isChat(req.url);
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return chat ? openAiError(reply, 400, 'request body too large', 'request_too_large') : reply.code(413).send(new DocError('INVALID_PARAMETER', 'request body too large', 413).toBody());
    }
    if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' && !chat) return reply.code(400).send(new DocError('EMPTY_TASK', 'the request body is empty', 400).toBody());
    if (code === 'FST_REQ_FILE_TOO_LARGE') return reply.code(413).send(new DocError('INVALID_PARAMETER', 'a file is larger than 100 MB', 413).toBody());
    if (code === 'FST_FILES_LIMIT') return reply.code(400).send(new DocError('INVALID_PARAMETER', 'too many files in one request').toBody());
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return reply.code(400).send(new DocError('INVALID_PARAMETER', 'too many form fields').toBody());
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return reply.code(400).send(new DocError('MISSING_FILE', 'the request is not multipart/form-data with a file').toBody());
    if (status >= 400 && status < 500) {
      if (chat) return openAiError(reply, status === 415 ? 400 : status, err.message, 'invalid_request');
      return reply.code(status === 415 || status === 406 ? 400 : status).send(new DocError('INVALID_PARAMETER', err.message).toBody());
    }
    log(`internal error on ${req.method} ${req.routeOptions?.url ?? 'unknown route'}: ${err.stack ?? err.message}`);
    if (chat) return reply.code(500).send({ error: { message: 'internal server error', type: 'server_error', code: 'internal_error' } });
    return reply.code(500).send({ success: false, err_code: 'INVALID_DOCUMENT', err_message: `internal error: ${err.message}` });
  });
  app.setNotFoundHandler((req, reply) => {
    if (isChat(req.url)) return openAiError(reply, 404, `no route ${req.method} ${req.url.split('?')[0]}`, 'not_found');
    return reply.code(404).send({ success: false, err_code: 'INVALID_PARAMETER', err_message: `no route ${req.method} ${req.url.split('?')[0]}` });
  });
}
