import type { FastifyInstance } from 'fastify';
import { DocError } from '../core/errors.js';
import type { KeyListing } from '../store/key-store.js';
import { requireOwner } from './auth.js';
import type { EngineServices } from './engine-services.js';

export function keyView(k: KeyListing) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    balance: k.balance,
    owner: k.owner,
    created_at: Math.floor(k.createdAt / 1000),
    revoked_at: k.revokedAt === null ? null : Math.floor(k.revokedAt / 1000),
  };
}

/** Key management for the workspace (owner key only): GET/POST /v1/keys, DELETE /v1/keys/:id. */
export function registerKeyRoutes(app: FastifyInstance, s: EngineServices): void {
  app.get('/v1/keys', async (req) => {
    requireOwner(s.ctx.keys, req);
    return { success: true, data: { keys: s.keyStore.list().map(keyView) } };
  });

  app.post('/v1/keys', { bodyLimit: 16 * 1024 }, async (req) => {
    requireOwner(s.ctx.keys, req);
    const body = (req.body ?? {}) as { name?: unknown; balance?: unknown };
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name || name.length > 100) throw new DocError('INVALID_PARAMETER', 'name is required (at most 100 characters)');
    let balance: number | null = null;
    if (body.balance !== undefined && body.balance !== null) {
      if (typeof body.balance !== 'number' || !Number.isInteger(body.balance) || body.balance < 0) throw new DocError('INVALID_PARAMETER', 'balance must be a whole number of pages, or null for unlimited');
      balance = body.balance;
    }
    const { key, record } = s.keyStore.create(name, { balance });
    return { success: true, data: { ...keyView(record), key } };
  });

  app.delete<{ Params: { id: string } }>('/v1/keys/:id', async (req) => {
    requireOwner(s.ctx.keys, req);
    const k = s.keyStore.get(req.params.id);
    if (!k) throw new DocError('EMPTY_TASK', `no key ${req.params.id.slice(0, 80)}`);
    if (k.owner) throw new DocError('INVALID_PARAMETER', 'the owner key cannot be revoked');
    s.keyStore.revoke(k.id);
    return { success: true, data: keyView(s.keyStore.get(k.id)!) };
  });
}
