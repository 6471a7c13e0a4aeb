import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** dist/renderer, beside dist/engine. */
export const RENDERER_DIR = fileURLToPath(new URL('../../renderer/', import.meta.url));

/** Serve the web workspace (built by Vite into dist/renderer) at /; without a build, / says how to make one. */
export async function registerWorkspace(app: FastifyInstance, dir = RENDERER_DIR): Promise<void> {
  if (existsSync(`${dir}/index.html`)) {
    await app.register(fastifyStatic, { root: dir, prefix: '/', index: 'index.html', wildcard: false });
    return;
  }
  app.get('/', async (_req, reply) =>
    reply.code(503).type('text/plain; charset=utf-8').send('The DocAI workspace is not built. Run `npm run build`, then restart the server.\n'),
  );
}
