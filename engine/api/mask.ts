import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { DocError } from '../core/errors.js';
import { ACCEPTED_FORMATS } from '../formats/detect-format.js';
import type { EngineServices } from './engine-services.js';
import { nestingDepth } from './extract.js';
import { discardUnused } from './multipart-upload.js';
import { authorizeSubmit, queueUploadTask, readUpload, refuseUnbuiltMode } from './submit-task.js';
import { findTask, maskView } from './task-views.js';

/** The spec's six fields, masked when json_schema names none. */
export const DEFAULT_MASK_FIELDS = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长'];
const MASK_MAX_FILES = 15;

function maskFields(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return DEFAULT_MASK_FIELDS;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new DocError('INVALID_PARAMETER', 'json_schema is not valid JSON');
  }
  if (nestingDepth(v, 32) > 32) throw new DocError('INVALID_PARAMETER', 'json_schema is nested more than 32 levels deep');
  const props = v && typeof v === 'object' ? (v as { properties?: unknown }).properties : undefined;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return DEFAULT_MASK_FIELDS;
  const names = Object.keys(props).filter((k) => k.length > 0 && k.length <= 100).slice(0, 200);
  return names.length > 0 ? names : DEFAULT_MASK_FIELDS;
}

/** POST /v1/docai/mask (multipart: files, mode=emr-mask, json_schema) and GET /v1/docai/mask/:task_id. */
export function registerMaskRoutes(app: FastifyInstance, s: EngineServices): void {
  app.post('/v1/docai/mask', async (req) => {
    const key = authorizeSubmit(s, req);
    const upload = await readUpload(s, req, MASK_MAX_FILES);
    try {
      const modeName = upload.fields.mode ?? '';
      if (modeName !== 'emr-mask') throw new DocError('INVALID_PARAMETER', modeName ? `unknown mask mode ${modeName}; use emr-mask` : 'mode is required');
      const fields = maskFields(upload.fields.json_schema);
      refuseUnbuiltMode(s, upload, 'mask', modeName);
      const id = `r_mask_${ulid()}`;
      queueUploadTask(s, upload, { id, resource: 'mask', key, mode: modeName, params: { fields } }, ACCEPTED_FORMATS.mask);
      return { success: true, data: { task_id: id, status: 'PROCESSING' } };
    } catch (err) {
      if (!(err instanceof DocError && err.code === 'INVALID_DOCUMENT')) discardUnused(upload.files, s.blobs, s.tasks);
      throw err;
    }
  });

  app.get<{ Params: { task_id: string } }>('/v1/docai/mask/:task_id', async (req) => maskView(s, findTask(s, req, 'mask', req.params.task_id)));
}
