import type { FastifyInstance } from 'fastify';
import { requireKey } from './auth.js';
import type { EngineServices } from './engine-services.js';

/** GET /v1/usage (extension): the caller's own balance and ledger (newest first). */
export function registerUsageRoutes(app: FastifyInstance, s: EngineServices): void {
  app.get('/v1/usage', async (req) => {
    const key = requireKey(s.ctx.keys, req);
    return {
      success: true,
      data: {
        key_id: key.id,
        name: key.name,
        balance: s.ctx.usage.balance(key.id),
        pages_used: s.ledger.totalPages(key.id),
        ledger: s.ledger.ledger(key.id).map((e) => ({ kind: e.kind, pages: e.pages, ref: e.ref, created_at: Math.floor(e.created_at / 1000) })),
      },
    };
  });
}
