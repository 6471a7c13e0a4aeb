import type { FastifyInstance } from 'fastify';

/**
 * CORS is closed by default: the workspace is served from this same origin. Origins in the allow-list
 * (setting corsOrigins) get the headers; a preflight from any other origin is refused.
 */
export function installCors(app: FastifyInstance, allowed: () => string[]): void {
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return;
    const ok = allowed().includes(origin);
    if (ok) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      if (!ok) return reply.code(403).send({ success: false, err_code: 'API_UNAUTHORIZED', err_message: 'cross-origin requests are not allowed from this origin' });
      reply.header('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      reply.header('Access-Control-Allow-Headers', 'api-key, authorization, content-type');
      reply.header('Access-Control-Max-Age', '600');
      return reply.code(204).send();
    }
  });
}
