import type { FastifyInstance } from 'fastify';
import { ulid } from 'ulid';
import { DocError } from '../core/errors.js';
import type { DocumentFormat } from '../core/page.js';
import type { ExtractMode } from '../core/results.js';
import { ACCEPTED_FORMATS } from '../formats/detect-format.js';
import type { EngineServices } from './engine-services.js';
import { discardUnused } from './multipart-upload.js';
import { authorizeSubmit, queueUploadTask, readUpload, refuseUnbuiltMode } from './submit-task.js';
import { extractView, findTask } from './task-views.js';

/** Files per task by mode (ARCHITECTURE.md). */
const MAX_FILES: Record<ExtractMode, number> = { 'docai-extract': 10, 'docai-extract-flash': 10, 'bl-extract': 10, 'occ-extract': 10, 'emr-extract': 15 };
const ACCEPTED: Record<ExtractMode, ReadonlySet<DocumentFormat>> = {
  'docai-extract': ACCEPTED_FORMATS.extract,
  'docai-extract-flash': ACCEPTED_FORMATS.extract,
  'emr-extract': ACCEPTED_FORMATS['emr-extract'],
  'bl-extract': ACCEPTED_FORMATS['bl-extract'],
  'occ-extract': ACCEPTED_FORMATS['occ-extract'],
};

const MAX_SCHEMA_DEPTH = 32;

/** Depth of nested objects/arrays, counted without recursion; stops counting past `limit`. */
export function nestingDepth(v: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Object.values(node as Record<string, unknown>)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return max;
}

/**
 * json_schema rules: text that is not JSON -> INVALID_PARAMETER; absent, {} or no usable `properties`
 * -> null ("invalid" in the spec's table: prompt or open extraction).
 */
export function readJsonSchema(text: string | undefined): unknown | null {
  if (text === undefined || text.trim() === '') return null;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new DocError('INVALID_PARAMETER', 'json_schema is not valid JSON');
  }
  if (nestingDepth(v, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH) throw new DocError('INVALID_PARAMETER', `json_schema is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const props = (v as { properties?: unknown }).properties;
  if (!props || typeof props !== 'object' || Array.isArray(props) || Object.keys(props).length === 0) return null;
  return v;
}

/** POST /v1/docai/extract (multipart: files, mode, json_schema, prompt_cus) and GET /v1/docai/extract/:task_id. */
export function registerExtractRoutes(app: FastifyInstance, s: EngineServices): void {
  app.post('/v1/docai/extract', async (req) => {
    const key = authorizeSubmit(s, req);
    const upload = await readUpload(s, req, 15);
    try {
      const modeName = upload.fields.mode ?? '';
      if (!(modeName in MAX_FILES)) {
        throw new DocError('INVALID_PARAMETER', modeName ? `unknown extract mode ${modeName}; use docai-extract, docai-extract-flash, emr-extract, bl-extract or occ-extract` : 'mode is required');
      }
      const mode = modeName as ExtractMode;
      const templated = mode === 'emr-extract' || mode === 'bl-extract' || mode === 'occ-extract';
      const jsonSchema = templated ? null : readJsonSchema(upload.fields.json_schema);
      if (mode === 'docai-extract-flash' && jsonSchema === null) {
        throw new DocError('INVALID_PARAMETER', 'docai-extract-flash needs a json_schema with properties (closed extraction only)');
      }
      if (upload.files.length > MAX_FILES[mode]) throw new DocError('INVALID_PARAMETER', `too many files: ${mode} takes at most ${MAX_FILES[mode]} per task`);
      refuseUnbuiltMode(s, upload, 'extract', mode);
      const id = `b_extract_${ulid()}`;
      const prompt = templated ? '' : (upload.fields.prompt_cus ?? '');
      queueUploadTask(s, upload, { id, resource: 'extract', key, mode, params: { mode, jsonSchema, prompt } }, ACCEPTED[mode]);
      return { success: true, data: { task_id: id, status: 'PROCESSING' } };
    } catch (err) {
      if (!(err instanceof DocError && err.code === 'INVALID_DOCUMENT')) discardUnused(upload.files, s.blobs, s.tasks);
      throw err;
    }
  });

  app.get<{ Params: { task_id: string } }>('/v1/docai/extract/:task_id', async (req) => extractView(s, findTask(s, req, 'extract', req.params.task_id)));
}
