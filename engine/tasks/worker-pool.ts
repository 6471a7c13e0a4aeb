import { availableParallelism } from 'node:os';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DocError } from '../core/errors.js';
import type { WorkerJob, WorkerReply } from './worker-jobs.js';

interface PendingJob {
  id: number;
  job: WorkerJob;
  timeoutMs: number;
  resolve: (v: unknown) => void;
  reject: (e: DocError) => void;
}

interface Slot {
  child: ChildProcess;
  ready: boolean;
  current: PendingJob | null;
  timer: NodeJS.Timeout | null;
}

/**
 * A fixed pool of forked worker children (dist/engine/tasks/worker-child.js) with a heap limit each.
 * Jobs queue FIFO; a child that exits mid-job (crash, out of memory, timeout kill) fails that job only
 * and is replaced.
 */
/**
 * Environment of a worker child. The OCR model loader reads a user model folder from the environment (settings.json
 * can name one too). A single worker is the machine's only OCR user, so it gets two intra-op threads; two or more
 * workers keep one each (measured: oversubscribed threads are slower under load). An explicit DOCAI_OCR_THREADS wins.
 */
export function workerEnvironment(
  base: NodeJS.ProcessEnv,
  opts: { size: number; modelDir?: string | null; cores: number },
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  if (opts.modelDir) env.DOCAI_MODEL_DIR = opts.modelDir;
  if (env.DOCAI_OCR_THREADS === undefined && Math.floor(opts.size) <= 1 && opts.cores >= 2) env.DOCAI_OCR_THREADS = '2';
  return env;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingJob[] = [];
  private nextId = 1;
  private closed = false;
  readonly childPath: string;

  constructor(
    private readonly opts: { size: number; heapMb: number; dataDir: string; modelDir?: string | null; childPath?: string; startNow?: boolean },
  ) {
    this.childPath = opts.childPath ?? fileURLToPath(new URL('./worker-child.js', import.meta.url));
    if (!existsSync(this.childPath)) throw new Error(`worker child not found at ${this.childPath} (run npm run build)`);
    if (opts.startNow !== false) this.start();
  }

  /** Fork the children (the server does this once it listens, so that their start does not delay it). */
  start(): void {
    if (this.slots.length > 0 || this.closed) return;
    const n = Math.max(1, Math.floor(this.opts.size));
    for (let i = 0; i < n; i++) this.slots.push(this.spawn());
  }

  get size(): number {
    return Math.max(1, Math.floor(this.opts.size));
  }

  /** pids of the live children (health and tests) */
  pids(): number[] {
    return this.slots.map((s) => s.child.pid ?? 0).filter((p) => p > 0);
  }

  get queued(): number {
    return this.queue.length;
  }

  get busy(): number {
    return this.slots.filter((s) => s.current).length;
  }

  run<T>(job: WorkerJob, timeoutMs: number): Promise<T> {
    if (this.closed) return Promise.reject(new DocError('INVALID_DOCUMENT', 'the server is shutting down'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, timeoutMs, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  private spawn(): Slot {
    const child = fork(this.childPath, [], {
      execArgv: [`--max-old-space-size=${Math.max(64, Math.floor(this.opts.heapMb))}`],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      env: workerEnvironment(process.env, { size: this.opts.size, modelDir: this.opts.modelDir, cores: availableParallelism() }),
    });
    const slot: Slot = { child, ready: false, current: null, timer: null };
    child.on('message', (msg: WorkerReply) => {
      if ('ready' in msg) {
        slot.ready = true;
        this.dispatch();
        return;
      }
      const job = slot.current;
      if (!job || job.id !== msg.id) return;
      this.release(slot);
      if (msg.ok) job.resolve(msg.value);
      else job.reject(new DocError(isDocCode(msg.code) ? msg.code : 'INVALID_DOCUMENT', msg.message));
      this.dispatch();
    });
    child.on('exit', (code, signal) => {
      const job = slot.current;
      this.release(slot);
      const i = this.slots.indexOf(slot);
      if (job) {
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        job.reject(new DocError('INVALID_DOCUMENT', `the worker processing this file stopped (${how}); the file may be damaged or too large to process`));
      }
      if (!this.closed && i >= 0) {
        this.slots[i] = this.spawn();
      }
      this.dispatch();
    });
    child.on('error', () => undefined);
    return slot;
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.current || !slot.child.connected) continue;
      const job = this.queue.shift()!;
      slot.current = job;
      slot.timer = setTimeout(() => {
        if (slot.current !== job) return;
        // no new job for this child: it is being killed
        slot.ready = false;
        this.release(slot);
        job.reject(new DocError('INVALID_DOCUMENT', `processing timed out after ${Math.round(job.timeoutMs / 1000)} s`));
        slot.child.kill('SIGKILL');
      }, Math.max(1, job.timeoutMs));
      slot.child.send({ id: job.id, dataDir: this.opts.dataDir, job: job.job });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new DocError('INVALID_DOCUMENT', 'the server is shutting down'));
    await Promise.all(
      this.slots.map(
        (s) =>
          new Promise<void>((resolve) => {
            if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
            s.child.once('exit', () => resolve());
            s.child.kill('SIGKILL');
          }),
      ),
    );
  }
}

function isDocCode(c: string): c is DocError['code'] {
  return ['EMPTY_TASK', 'ILLEGALITY_TASK_TYPE', 'API_UNAUTHORIZED', 'INVALID_PARAMETER', 'INVALID_DOCUMENT', 'INSUFFICIENT_BALANCE', 'MISSING_FILE', 'FILE_DOWNLOAD_FAILED'].includes(c);
}
