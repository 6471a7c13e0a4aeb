import type { FastifyInstance } from 'fastify';
import type { EngineServices } from './engine-services.js';

/** GET /v1/health: liveness and queue depth, no auth (says nothing about documents or keys). */
export function registerHealthRoutes(app: FastifyInstance, s: EngineServices): void {
  app.get('/v1/health', async () => ({
    status: 'ok',
    uptime_s: Math.round((Date.now() - s.startedAt) / 1000),
    workers: s.pool.size,
    worker_pids: s.pool.pids(),
    busy_workers: s.pool.busy,
    queued_jobs: s.pool.queued,
    tasks_in_flight: s.engine.inFlight,
    engines: { parse: s.pipelineBuilt('parse'), extract: s.pipelineBuilt('extract'), mask: s.pipelineBuilt('mask') },
  }));
}
