import type { FastifyRequest } from 'fastify';
import { DocError } from '../core/errors.js';
import type { KeyRecord, KeyService } from './context.js';

/** The raw key of a request: header `api-key` (document endpoints), else `Authorization: Bearer`. */
export function rawKeyOf(req: FastifyRequest): string | undefined {
  const h = req.headers['api-key'];
  if (typeof h === 'string' && h.length > 0) return h.trim();
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return undefined;
}

/** Document-endpoint auth: the key, or API_UNAUTHORIZED (401). */
export function requireKey(keys: KeyService, req: FastifyRequest): KeyRecord {
  const key = keys.authenticate(rawKeyOf(req));
  if (!key) throw new DocError('API_UNAUTHORIZED', 'missing, unknown or revoked api-key');
  return key;
}

export function requireOwner(keys: KeyService, req: FastifyRequest): KeyRecord {
  const key = requireKey(keys, req);
  if (!key.owner) throw new DocError('API_UNAUTHORIZED', 'only the owner key can manage keys');
  return key;
}
