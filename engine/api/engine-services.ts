import type { BlobStore } from '../store/blob-store.js';
import type { DocumentStore } from '../store/document-store.js';
import type { KeyStore } from '../store/key-store.js';
import type { LinkSigner } from '../store/signed-links.js';
import type { TaskStore } from '../store/task-store.js';
import type { UsageLedger } from '../store/usage-ledger.js';
import type { TaskEngine } from '../tasks/task-engine.js';
import type { WorkerPool } from '../tasks/worker-pool.js';
import type { AppContext } from './context.js';

/** What the foundation's own routes use beyond AppContext: the concrete stores and the task engine. */
export interface EngineServices {
  ctx: AppContext;
  keyStore: KeyStore;
  ledger: UsageLedger;
  linkSigner: LinkSigner;
  tasks: TaskStore;
  documents: DocumentStore;
  blobs: BlobStore;
  engine: TaskEngine;
  pool: WorkerPool;
  /** true when the compiled pipeline module exists (a mode whose engine is missing is refused at submit) */
  pipelineBuilt: (which: 'parse' | 'extract' | 'mask') => boolean;
  startedAt: number;
}
