import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { loadSettings, type Settings } from '../core/config.js';
import { BlobStore } from '../store/blob-store.js';
import { DataDirLock } from '../store/data-dir-lock.js';
import { openDatabase, type Db } from '../store/database.js';
import { DocumentStore } from '../store/document-store.js';
import { KeyStore } from '../store/key-store.js';
import { Library } from '../store/library.js';
import { LinkSigner } from '../store/signed-links.js';
import { TaskStore } from '../store/task-store.js';
import { UsageLedger } from '../store/usage-ledger.js';
import { sweepRetention } from '../tasks/retention-sweep.js';
import { TaskEngine } from '../tasks/task-engine.js';
import { WorkerPool } from '../tasks/worker-pool.js';
import type { AppContext } from './context.js';
import { installCors } from './cors.js';
import { installHostCheck, isLoopbackHost } from './host-check.js';
import type { EngineServices } from './engine-services.js';
import { installErrorHandling } from './error-handler.js';
import { registerExtractRoutes } from './extract.js';
import { registerFileLinkRoutes } from './file-links.js';
import { registerFileRoutes } from './files.js';
import { registerHealthRoutes } from './health.js';
import { registerKeyRoutes } from './keys.js';
import { registerMaskRoutes } from './mask.js';
import { registerParseV1Routes } from './parse-v1.js';
import { registerParseV2Routes } from './parse-v2.js';
import { registerTaskDeleteRoutes } from './task-delete.js';
import { registerUsageRoutes } from './usage.js';
import { registerWorkspace } from './workspace.js';

export interface DocaiServer {
  app: FastifyInstance;
  services: EngineServices;
  settings: Settings;
  /** the raw owner key (for the workspace link) */
  ownerKey: string;
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}

const PIPELINE_MODULES: Record<'parse' | 'extract' | 'mask', string[]> = {
  parse: ['../vision/read-document.js', '../parse/build-result.js'],
  extract: ['../vision/read-document.js', '../extract/run-extraction.js'],
  mask: ['../vision/read-document.js', '../mask/mask-file.js'],
};

function pipelineBuilt(which: 'parse' | 'extract' | 'mask'): boolean {
  return PIPELINE_MODULES[which].every((m) => existsSync(fileURLToPath(new URL(m, import.meta.url))));
}

/**
 * Build the whole engine: SQLite + blob store, keys (owner key, DOCAI_API_KEY), the worker pool and task
 * engine (resuming every unfinished task), and the Fastify app with every route.
 */
export async function createServer(overrides: Partial<Settings> = {}, log: (msg: string) => void = (m) => process.stderr.write(`docai: ${m}\n`)): Promise<DocaiServer> {
  const settings = loadSettings(overrides);
  const db: Db = openDatabase(settings.dataDir);
  const blobs = new BlobStore(settings.dataDir);
  const keyStore = new KeyStore(db);
  const ownerKey = keyStore.ensureOwnerKey(settings.dataDir);
  const envKey = process.env.DOCAI_API_KEY;
  // The operator's key (tests, tools, the workspace link when set): unlimited and owner-level.
  if (envKey) keyStore.registerRaw(envKey, 'DOCAI_API_KEY', null, true);
  const ledger = new UsageLedger(db);
  const tasks = new TaskStore(db);
  const documents = new DocumentStore(db);
  const library = new Library(db);
  let baseUrl = `http://${settings.host}:${settings.port}`;
  const linkSigner = new LinkSigner(settings.dataDir, () => settings.linkTtlSeconds, () => settings.publicFileBase ?? baseUrl);
  const ctx: AppContext = { settings, keys: keyStore, usage: ledger, links: linkSigner, library, baseUrl: () => baseUrl };

  const pool = new WorkerPool({ size: settings.workers, heapMb: settings.workerHeapMb, dataDir: settings.dataDir, modelDir: settings.modelDir, startNow: false });
  const engine = new TaskEngine({ settings, tasks, documents, blobs, pool, usage: ledger, library: () => library, log });
  const services: EngineServices = { ctx, keyStore, ledger, linkSigner, tasks, documents, blobs, engine, pool, pipelineBuilt, startedAt: Date.now() };

  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024, routerOptions: { maxParamLength: 300 }, return503OnClosing: true, forceCloseConnections: true });
  let boundHost = settings.host;
  const publicHost = (): string[] => {
    try {
      return settings.publicFileBase ? [new URL(settings.publicFileBase).hostname.toLowerCase()] : [];
    } catch {
      return [];
    }
  };
  installHostCheck(app, () => isLoopbackHost(boundHost), publicHost);
  installCors(app, () => settings.corsOrigins);
  installErrorHandling(app, log);
  await app.register(multipart, { limits: { fileSize: 100 * 1024 * 1024, fieldSize: 1024 * 1024, files: 51, fields: 20 } });
  registerHealthRoutes(app, services);
  registerParseV1Routes(app, services);
  registerParseV2Routes(app, services);
  registerExtractRoutes(app, services);
  registerMaskRoutes(app, services);
  registerTaskDeleteRoutes(app, services);
  registerUsageRoutes(app, services);
  registerFileRoutes(app, services);
  registerFileLinkRoutes(app, services);
  registerKeyRoutes(app, services);
  await registerChatHelperRoutes(app, ctx, log);
  await registerWorkspace(app);

  sweepRetention(tasks, blobs, settings.retentionDays);
  const sweepTimer = setInterval(() => sweepRetention(tasks, blobs, settings.retentionDays), 6 * 3600_000);
  sweepTimer.unref();

  const lock = new DataDirLock(settings.dataDir);
  let closed = false;
  return {
    app,
    services,
    settings,
    ownerKey,
    async listen(port: number, host: string) {
      const holder = lock.acquire();
      if (holder !== null) {
        const err = new Error(`another docai server (pid ${holder}) is using the data folder ${settings.dataDir}`) as NodeJS.ErrnoException;
        err.code = 'EDATADIRLOCKED';
        throw err;
      }
      boundHost = host;
      await app.listen({ port, host });
      const addr = app.server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      baseUrl = `http://${shownHost}:${actual}`;
      // workers and resumed tasks start once the server can answer polls
      pool.start();
      const resumed = engine.resumeAll();
      if (resumed > 0) log(`resumed ${resumed} unfinished task(s)`);
      return baseUrl;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sweepTimer);
      await engine.stop();
      await app.close();
      await pool.close();
      db.close();
      lock.release();
    },
  };
}

/** The chat helper's routes (engine/api/chat.ts, engine/api/models.ts). */
async function registerChatHelperRoutes(app: FastifyInstance, ctx: AppContext, log: (msg: string) => void): Promise<void> {
  try {
    const chat = await import('./chat.js');
    chat.registerChatRoutes(app, ctx);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    log(`chat routes are not available: ${(err as Error).message}`);
  }
  try {
    const models = await import('./models.js');
    models.registerModelRoutes(app, ctx);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    log(`model routes are not available: ${(err as Error).message}`);
  }
}
