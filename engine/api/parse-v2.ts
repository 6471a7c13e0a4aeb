import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { DocError } from '../core/errors.js';
import { PARSE_MODES } from '../core/results.js';
import { ACCEPTED_FORMATS } from '../formats/detect-format.js';
import { requireKey } from './auth.js';
import type { EngineServices } from './engine-services.js';
import { cleanFileName } from './upload-names.js';
import { findTask, parseV2View } from './task-views.js';

const V2_MODELS = new Set(['docai-parse-flash', 'docai-parse-premium']);

/** POST /v2/docai/parse/file-url (JSON; the download runs inside the task) and GET /v2/docai/parse/:task_id. */
export function registerParseV2Routes(app: FastifyInstance, s: EngineServices): void {
  app.post('/v2/docai/parse/file-url', { bodyLimit: 64 * 1024 }, async (req) => {
    const key = requireKey(s.ctx.keys, req);
    const balance = s.ctx.usage.balance(key.id);
    if (balance !== null && balance < 1) throw new DocError('INSUFFICIENT_BALANCE', `the balance of this key is ${balance} pages; at least 1 is needed`);
    const body = req.body as { file?: { file_name?: unknown; file_url?: unknown }; model?: unknown } | null;
    if (!body || typeof body !== 'object') throw new DocError('INVALID_PARAMETER', 'send a JSON body {file:{file_name, file_url}, model}');
    if (Object.keys(body).length === 0) throw new DocError('EMPTY_TASK', 'the request is empty: send {file:{file_name, file_url}, model}', 400);
    const file = body.file;
    if (!file || typeof file !== 'object') throw new DocError('MISSING_FILE', 'file is required: {file_name, file_url}');
    if (typeof file.file_url !== 'string' || file.file_url.length === 0) throw new DocError('MISSING_FILE', 'file.file_url is required');
    if (typeof file.file_name !== 'string' || file.file_name.length === 0) throw new DocError('INVALID_PARAMETER', 'file.file_name is required');
    if (file.file_url.length > 8192) throw new DocError('INVALID_PARAMETER', 'file.file_url is too long');
    try {
      new URL(file.file_url);
    } catch {
      throw new DocError('INVALID_PARAMETER', 'file.file_url is not a valid URL');
    }
    const model = typeof body.model === 'string' ? body.model : '';
    if (!V2_MODELS.has(model)) throw new DocError('INVALID_PARAMETER', model ? `unknown model ${model}; use docai-parse-flash or docai-parse-premium` : 'model is required');
    if (!s.pipelineBuilt('parse')) throw new DocError('INVALID_PARAMETER', `model ${model} is not available: the parse engine is not part of this build`);
    const id = `parse_${randomUUID()}`;
    s.tasks.create(
      { id, resource: 'parse-v2', keyId: key.id, mode: model, params: { mode: PARSE_MODES[model], url: file.file_url, accepted: [...ACCEPTED_FORMATS.parse] } },
      [{ fileName: cleanFileName(file.file_name), inputHash: null, sourceUrl: file.file_url, format: null }],
    );
    s.engine.schedule(id);
    return { success: true, data: { task_id: id } };
  });

  app.get<{ Params: { task_id: string } }>('/v2/docai/parse/:task_id', async (req) => parseV2View(s, findTask(s, req, 'parse-v2', req.params.task_id)));
}
