import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { DocError } from '../core/errors.js';
import { PARSE_MODES } from '../core/results.js';
import { ACCEPTED_FORMATS } from '../formats/detect-format.js';
import type { EngineServices } from './engine-services.js';
import { discardUnused } from './multipart-upload.js';
import { authorizeSubmit, queueUploadTask, readUpload, refuseUnbuiltMode } from './submit-task.js';
import { findTask, parseV1View } from './task-views.js';

export const PARSE_V1_MAX_FILES = 50;

/** POST /v1/docai/parse (multipart: files, mode) and GET /v1/docai/parse/:task_id. */
export function registerParseV1Routes(app: FastifyInstance, s: EngineServices): void {
  app.post('/v1/docai/parse', async (req) => {
    const key = authorizeSubmit(s, req);
    const upload = await readUpload(s, req, PARSE_V1_MAX_FILES);
    const modeName = upload.fields.mode ?? '';
    const mode = PARSE_MODES[modeName];
    if (!mode) {
      discardUnused(upload.files, s.blobs, s.tasks);
      throw new DocError('INVALID_PARAMETER', modeName ? `unknown parse mode ${modeName}; use lite, pro, premium, docai-parse-flash or docai-parse-premium` : 'mode is required');
    }
    refuseUnbuiltMode(s, upload, 'parse', modeName);
    const id = `b_parse_${ulid()}`;
    queueUploadTask(s, upload, { id, resource: 'parse', key, mode: modeName, params: { mode } }, ACCEPTED_FORMATS.parse);
    return { success: true, data: { task_id: id, status: 'PROCESSING' } };
  });

  app.get<{ Params: { task_id: string } }>('/v1/docai/parse/:task_id', async (req) => parseV1View(s, findTask(s, req, 'parse', req.params.task_id)));
}
