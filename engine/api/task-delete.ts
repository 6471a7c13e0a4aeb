import type { FastifyInstance } from 'fastify';
import { DocError } from '../core/errors.js';
import type { TaskResource } from '../store/task-store.js';
import { deleteTask } from '../tasks/task-deletion.js';
import type { EngineServices } from './engine-services.js';
import { findTask } from './task-views.js';

/** DELETE /v1/docai/{parse|extract|mask}/{task_id} and /v2/docai/parse/{task_id} (extension): the task and its files go now. */
export function registerTaskDeleteRoutes(app: FastifyInstance, s: EngineServices): void {
  const byPath: Record<string, TaskResource> = { parse: 'parse', extract: 'extract', mask: 'mask' };
  app.delete<{ Params: { resource: string; task_id: string } }>('/v1/docai/:resource/:task_id', async (req) => {
    const resource = byPath[req.params.resource];
    if (!resource) throw new DocError('INVALID_PARAMETER', `unknown resource ${req.params.resource.slice(0, 40)}`);
    const task = findTask(s, req, resource, req.params.task_id);
    deleteTask(s.tasks, s.blobs, task.id);
    return { success: true, data: { task_id: task.id, deleted: true } };
  });
  app.delete<{ Params: { task_id: string } }>('/v2/docai/parse/:task_id', async (req) => {
    const task = findTask(s, req, 'parse-v2', req.params.task_id);
    deleteTask(s.tasks, s.blobs, task.id);
    return { success: true, data: { task_id: task.id, deleted: true } };
  });
}
