import type { FastifyRequest } from 'fastify';
import { DocError } from '../core/errors.js';
import type { TaskFileRow, TaskResource, TaskRow } from '../store/task-store.js';
import { requireKey } from './auth.js';
import type { EngineServices } from './engine-services.js';

/** The task id prefix of each resource (ARCHITECTURE.md: task ids). */
export function resourceOfId(id: string): TaskResource | null {
  if (id.startsWith('b_parse_')) return 'parse';
  if (id.startsWith('b_extract_')) return 'extract';
  if (id.startsWith('r_mask_')) return 'mask';
  if (id.startsWith('parse_')) return 'parse-v2';
  if (id.startsWith('files_')) return 'files';
  return null;
}

/**
 * Find a task for a poll at a resource path: unknown id (or another key's task) -> 404 EMPTY_TASK,
 * a task of another resource -> 409 ILLEGALITY_TASK_TYPE.
 */
export function findTask(s: EngineServices, req: FastifyRequest, resource: TaskResource, id: string): TaskRow {
  const key = requireKey(s.ctx.keys, req);
  const task = id.length <= 200 ? s.tasks.get(id) : null;
  if (!task || (task.key_id !== key.id && !key.owner)) throw new DocError('EMPTY_TASK', `no task ${id.slice(0, 80)}`);
  if (task.resource !== resource) throw new DocError('ILLEGALITY_TASK_TYPE', `task ${id} is not a ${resource === 'parse-v2' ? 'parse' : resource} task`);
  return task;
}

function failedEntry(f: TaskFileRow) {
  return { file_name: f.file_name, status: 'FAILED' as const, err_code: f.err_code ?? 'INVALID_DOCUMENT', err_message: f.err_message ?? 'the file could not be processed' };
}

function errorPart(task: TaskRow) {
  return { err_code: task.err_code ?? 'INVALID_DOCUMENT', err_message: task.err_message ?? 'no file could be processed' };
}

export function parseV1View(s: EngineServices, task: TaskRow) {
  if (task.status === 'PROCESSING') return { success: true, data: { task_id: task.id, status: 'PROCESSING' } };
  const results = s.tasks.files(task.id).map((f) => (f.status === 'SUCCESS' ? JSON.parse(f.result!) : failedEntry(f)));
  if (task.status === 'SUCCESS') return { success: true, data: { task_id: task.id, status: 'SUCCESS', results } };
  return { success: true, data: { task_id: task.id, status: task.status, ...errorPart(task), results } };
}

export function parseV2View(s: EngineServices, task: TaskRow) {
  if (task.status === 'PROCESSING') return { success: true, data: { task_id: task.id, status: 'PROCESSING' } };
  const f = s.tasks.files(task.id)[0];
  if (task.status === 'SUCCESS' && f?.result) return { success: true, data: { task_id: task.id, status: 'SUCCESS', result: JSON.parse(f.result) } };
  return { success: true, data: { task_id: task.id, status: 'ERROR', ...errorPart(task) } };
}

export function extractView(s: EngineServices, task: TaskRow) {
  if (task.status === 'PROCESSING') return { success: true, data: { task_id: task.id, status: 'PROCESSING' } };
  const files = s.tasks.files(task.id);
  const results: unknown[] = [];
  if (task.mode === 'emr-extract') {
    if (task.result) results.push(...(JSON.parse(task.result) as unknown[]));
    for (const f of files) if (f.status === 'FAILED') results.push(failedEntry(f));
  } else {
    for (const f of files) {
      if (f.status === 'SUCCESS') results.push(...(JSON.parse(f.result ?? '[]') as unknown[]));
      else results.push(failedEntry(f));
    }
  }
  const object = task.mode === 'docai-extract-flash' ? {} : { object: 'create.extracted_result' };
  if (task.status === 'SUCCESS') return { success: true, data: { task_id: task.id, status: 'SUCCESS', ...object, results } };
  return { success: true, data: { task_id: task.id, status: 'FAILED', ...errorPart(task), results } };
}

export function maskView(s: EngineServices, task: TaskRow) {
  if (task.status === 'PROCESSING') return { success: true, data: { task_id: task.id, status: 'PROCESSING' } };
  const results = s.tasks.files(task.id).map((f) => {
    if (f.status !== 'SUCCESS' || !f.output_name) return { index: f.idx, page_count: f.page_count, ...failedEntry(f) };
    const r = JSON.parse(f.result ?? '{}') as { page_count?: number; masked_fields?: string[]; regions?: unknown[] };
    return {
      index: f.idx,
      page_count: r.page_count ?? f.page_count,
      file_name: f.output_name,
      status: 'SUCCESS' as const,
      url: s.ctx.links.sign(maskedFilePath(task.id, f.output_name)),
      masked_fields: r.masked_fields ?? [],
      regions: r.regions ?? [],
    };
  });
  if (task.status === 'SUCCESS') return { success: true, data: { task_id: task.id, status: 'SUCCESS', object: 'create.masked_result', results } };
  return { success: true, data: { task_id: task.id, status: 'FAILED', ...errorPart(task), results } };
}

export function maskedFilePath(taskId: string, name: string): string {
  return `/files/masked/${encodeURIComponent(taskId)}/${encodeURIComponent(name)}`;
}

export function documentFilePath(docId: string): string {
  return `/files/docs/${encodeURIComponent(docId)}`;
}
