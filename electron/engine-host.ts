import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EngineHandle } from './main-wiring.js';

/**
 * The shape of the compiled engine's server factory (engine/api/server.ts createServer). Declared here, not
 * imported, so that electron/ compiles on its own; tests/unit/electron checks the real module against it.
 */
export interface EngineServerModule {
  createServer(overrides?: { dataDir?: string }): Promise<{
    settings: { port: number; host: string };
    ownerKey: string;
    listen(port: number, host: string): Promise<string>;
    close(): Promise<void>;
  }>;
}

/** Resolves to `port` when it can be bound on `host`, else 0 (the system picks a free one). */
export function portOrFree(port: number, host: string): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(0));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(port)));
  });
}

/** Start the API server in this process: the settings' port, or a free one when it is taken. */
export async function startEngineServer(mod: EngineServerModule, dataDir: string): Promise<EngineHandle> {
  const server = await mod.createServer({ dataDir });
  const host = server.settings.host || '127.0.0.1';
  const port = await portOrFree(server.settings.port, host);
  const baseUrl = await server.listen(port, host);
  return { baseUrl, ownerKey: server.ownerKey, close: () => server.close() };
}

/** The compiled engine lives in dist/engine beside dist/electron (the app root holds both). */
export async function loadEngineServer(appRoot: string): Promise<EngineServerModule> {
  return (await import(pathToFileURL(join(appRoot, 'dist', 'engine', 'api', 'server.js')).href)) as EngineServerModule;
}
