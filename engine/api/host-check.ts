import type { FastifyInstance } from 'fastify';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * DNS-rebinding defence: while the server listens on loopback, a request must name a loopback host
 * (any port). A web page whose own domain was re-pointed at 127.0.0.1 sends its domain as Host and is refused.
 * Extra names (a public file base) can be allowed through `extraHosts`.
 */
export function installHostCheck(app: FastifyInstance, active: () => boolean, extraHosts: () => string[]): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!active()) return;
    const host = req.headers.host;
    if (typeof host !== 'string') return;
    const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
    if (LOOPBACK_NAMES.has(name.toLowerCase()) || extraHosts().includes(name.toLowerCase())) return;
    return reply.code(403).send({ success: false, err_code: 'API_UNAUTHORIZED', err_message: 'this server answers only requests addressed to 127.0.0.1 or localhost' });
  });
}

export function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '::1' || host.startsWith('127.');
}
