import { existsSync, rmSync, statSync } from 'node:fs';
import { ulid } from 'ulid';
import type { IndexableDocument, LibraryService, UsageService } from '../api/context.js';
import type { Settings } from '../core/config.js';
import { DocError } from '../core/errors.js';
import type { DocumentFormat, DocumentPages } from '../core/page.js';
import type { ExtractMode, ParseMode, ParseResult } from '../core/results.js';
import type { BlobStore } from '../store/blob-store.js';
import { checkFault } from '../store/fault-points.js';
import type { DocumentStore } from '../store/document-store.js';
import type { TaskFileRow, TaskRow, TaskStore, TaskStatus } from '../store/task-store.js';
import { timeoutBeforeReading, timeoutForPages } from './task-timeouts.js';
import { DEFAULT_DOWNLOAD, downloadToBlob } from './url-download.js';
import type { WorkerPool } from './worker-pool.js';
import { PAGES_CACHE_NAME, type ExtractOutcome, type MaskOutcome, type ParseOutcome, type ReadOutcome, type SourceFile } from './worker-jobs.js';

export interface ParseParams {
  mode: ParseMode;
  accepted: DocumentFormat[];
  url?: string;
}
export interface ExtractParams {
  mode: ExtractMode;
  jsonSchema: unknown | null;
  prompt: string;
  accepted: DocumentFormat[];
}
export interface MaskParams {
  fields: string[];
  accepted: DocumentFormat[];
}
export interface FilesParams {
  docIds: string[];
  accepted: DocumentFormat[];
}

interface Deps {
  settings: Settings;
  tasks: TaskStore;
  documents: DocumentStore;
  blobs: BlobStore;
  pool: WorkerPool;
  usage: UsageService;
  library: () => LibraryService | null;
  log: (msg: string) => void;
}

const EXT: Record<DocumentFormat, string> = {
  pdf: 'pdf', png: 'png', jpg: 'jpg', bmp: 'bmp', tiff: 'tif', gif: 'gif', webp: 'webp', docx: 'docx', xlsx: 'xlsx',
  pptx: 'pptx', html: 'html', txt: 'txt', doc: 'doc', xls: 'xls', ppt: 'ppt',
};

export function extensionOf(format: DocumentFormat): string {
  return EXT[format];
}

/**
 * Runs tasks to completion. All state is in SQLite (TaskStore): a task is PROCESSING until `finish` writes
 * its final state in one transaction with the debit, so `resumeAll()` after a crash picks up exactly the files
 * still PENDING.
 */
export class TaskEngine {
  private readonly running = new Map<string, Promise<void>>();
  private stopping = false;
  constructor(private readonly d: Deps) {}

  /** Start (or resume) a task; returns at once. */
  schedule(taskId: string): void {
    if (this.running.has(taskId) || this.stopping) return;
    const p = this.process(taskId)
      .catch((err: unknown) => {
        this.d.log(`task ${taskId} stopped unexpectedly: ${(err as Error).message}`);
        this.failRemaining(taskId, asDocError(err));
      })
      .finally(() => this.running.delete(taskId));
    this.running.set(taskId, p);
  }

  resumeAll(): number {
    const open = this.d.tasks.unfinished();
    for (const t of open) this.schedule(t.id);
    return open.length;
  }

  get inFlight(): number {
    return this.running.size;
  }

  async stop(): Promise<void> {
    this.stopping = true;
  }

  private async process(taskId: string): Promise<void> {
    const task = this.d.tasks.get(taskId);
    if (!task || task.status !== 'PROCESSING') return;
    switch (task.resource) {
      case 'parse':
      case 'parse-v2':
      case 'files':
        await this.forEachPending(task, (f) => this.parseFile(task, f));
        break;
      case 'mask':
        await this.forEachPending(task, (f) => this.maskOne(task, f));
        break;
      case 'extract':
        return this.extract(task);
    }
    if (this.stopping) return;
    this.finishFromFiles(task);
  }

  private async forEachPending(task: TaskRow, work: (f: TaskFileRow) => Promise<void>): Promise<void> {
    const pending = this.d.tasks.files(task.id).filter((f) => f.status === 'PENDING');
    await Promise.all(
      pending.map(async (f) => {
        try {
          await work(f);
        } catch (err) {
          if (this.stopping) return;
          const e = asDocError(err);
          this.d.tasks.fileFailed(task.id, f.idx, e.code, e.message);
          if (task.resource === 'files') this.docFailed(task, f, e);
        }
      }),
    );
  }

  private source(f: TaskFileRow): SourceFile {
    if (!f.input_hash || !this.d.blobs.has(f.input_hash)) throw new DocError('INVALID_DOCUMENT', `${f.file_name}: the uploaded file is no longer stored`);
    return { path: this.d.blobs.pathOf(f.input_hash), fileName: f.file_name, blobHash: f.input_hash };
  }

  private readTimeout(f: SourceFile): number {
    return timeoutBeforeReading(this.d.settings, statSync(f.path).size);
  }

  private async parseFile(task: TaskRow, f: TaskFileRow): Promise<void> {
    const params = JSON.parse(task.params) as ParseParams;
    if (task.resource === 'parse-v2' && !f.input_hash) {
      const { hash } = await downloadToBlob(f.source_url ?? params.url ?? '', this.d.blobs, {
        ...DEFAULT_DOWNLOAD,
        timeoutMs: Number(process.env.DOCAI_DOWNLOAD_TIMEOUT_MS) || DEFAULT_DOWNLOAD.timeoutMs,
        allowPrivate: this.d.settings.allowPrivateUrls,
      });
      this.d.tasks.setInput(task.id, f.idx, hash, null);
      f = { ...f, input_hash: hash };
    }
    const src = this.source(f);
    const mode: ParseMode = task.resource === 'files' ? 'pro' : params.mode;
    const out = await this.d.pool.run<ParseOutcome>(
      { type: 'parse', file: src, accepted: params.accepted, mode, withIndexParse: true },
      this.readTimeout(src),
    );
    if (this.stopping) return;
    if (task.resource !== 'files') this.d.tasks.fileSucceeded(task.id, f.idx, { result: out.result, pageCount: out.pageCount });
    this.index(task, f, src, out);
  }

  /** Parse results and added files go into the owner's chat library (extract and mask inputs never do). */
  private index(task: TaskRow, f: TaskFileRow, src: SourceFile, out: ParseOutcome): void {
    const docId = task.resource === 'files' ? (JSON.parse(task.params) as FilesParams).docIds[f.idx]! : `doc_${ulid()}`;
    const lib = this.d.library();
    if (task.resource !== 'files' && this.d.documents.list(task.key_id).some((d) => d.blob_hash === src.blobHash && d.status === 'SUCCESS')) return;
    if (task.resource !== 'files') this.d.documents.add({ docId, keyId: task.key_id, fileName: f.file_name, blobHash: src.blobHash, taskId: task.id, status: 'PROCESSING' });
    try {
      if (!lib) throw new DocError('INVALID_DOCUMENT', 'the chat library is not available in this build');
      const cached = this.d.blobs.readDerived(src.blobHash, PAGES_CACHE_NAME);
      if (!cached) throw new DocError('INVALID_DOCUMENT', 'the page model of this file was not stored');
      const doc = (JSON.parse(cached) as { doc: DocumentPages }).doc;
      const indexable: IndexableDocument = {
        docId,
        ownerKeyId: task.key_id,
        fileName: f.file_name,
        pageCount: out.pageCount,
        blobHash: src.blobHash,
        pages: doc.pages,
        ...(out.indexParse ? { parse: out.indexParse as ParseResult } : {}),
      };
      lib.indexDocument(indexable);
      this.d.documents.setStatus(docId, 'SUCCESS', out.pageCount);
      if (task.resource === 'files') this.d.tasks.fileSucceeded(task.id, f.idx, { result: { doc_id: docId }, pageCount: out.pageCount });
    } catch (err) {
      const e = asDocError(err);
      this.d.log(`indexing ${docId} failed: ${e.message}`);
      if (task.resource === 'files') throw e;
      this.d.documents.delete(docId);
    }
  }

  private docFailed(task: TaskRow, f: TaskFileRow, e: DocError): void {
    const docId = (JSON.parse(task.params) as FilesParams).docIds[f.idx];
    if (docId) this.d.documents.setStatus(docId, 'FAILED', 0, { code: e.code, message: e.message });
  }

  private async maskOne(task: TaskRow, f: TaskFileRow): Promise<void> {
    const params = JSON.parse(task.params) as MaskParams;
    const src = this.source(f);
    const read = await this.d.pool.run<ReadOutcome>({ type: 'read', file: src, accepted: params.accepted }, this.readTimeout(src));
    this.d.tasks.setPages(task.id, f.idx, src.blobHash, read.pageCount, read.format);
    const ext = extensionOf(read.format);
    const tmpOut = this.d.blobs.tempPath(`.${ext}`);
    try {
      const out = await this.d.pool.run<MaskOutcome>(
        { type: 'mask', file: { ...src, format: read.format }, fields: params.fields, outPath: tmpOut },
        timeoutForPages(this.d.settings, read.pageCount),
      );
      if (this.stopping) return;
      if (!existsSync(out.outPath)) throw new DocError('INVALID_DOCUMENT', 'the masking engine wrote no file');
      checkFault('mask-output');
      const { hash } = await this.d.blobs.putFile(out.outPath);
      this.d.tasks.fileSucceeded(task.id, f.idx, {
        result: { page_count: out.pageCount, masked_fields: out.maskedFields, regions: out.regions },
        pageCount: out.pageCount,
        outputHash: hash,
        outputName: `masked_${f.idx}.${ext}`,
      });
      // The original medical record is not kept once its masked copy exists.
      this.d.tasks.clearInput(task.id, f.idx);
      if (!this.d.tasks.blobInUse(src.blobHash)) this.d.blobs.delete(src.blobHash);
    } finally {
      rmSync(tmpOut, { force: true });
    }
  }

  private async extract(task: TaskRow): Promise<void> {
    const params = JSON.parse(task.params) as ExtractParams;
    const reads = new Map<number, { src: SourceFile; read: ReadOutcome }>();
    // 1. read every file on its own: one bad file fails only its entry
    await this.forEachPending(task, async (f) => {
      const src = this.source(f);
      const read = await this.d.pool.run<ReadOutcome>({ type: 'read', file: src, accepted: params.accepted }, this.readTimeout(src));
      this.d.tasks.setPages(task.id, f.idx, src.blobHash, read.pageCount, read.format);
      reads.set(f.idx, { src, read });
    });
    if (this.stopping) return;
    const req = { mode: params.mode, jsonSchema: params.jsonSchema, prompt: params.prompt };
    if (params.mode === 'emr-extract') {
      // one merged item over every readable file
      const files = [...reads.entries()].sort((a, b) => a[0] - b[0]);
      const pages = files.reduce((n, [, r]) => n + r.read.pageCount, 0);
      if (files.length === 0) return this.finishFromFiles(task);
      try {
        const out = await this.d.pool.run<ExtractOutcome>(
          { type: 'extract', files: files.map(([, r]) => ({ ...r.src, format: r.read.format })), ...req },
          timeoutForPages(this.d.settings, pages),
        );
        if (this.stopping) return;
        for (const [idx, r] of files) this.d.tasks.fileSucceeded(task.id, idx, { pageCount: r.read.pageCount });
        this.finishFromFiles(task, out.results);
      } catch (err) {
        if (this.stopping) return;
        const e = asDocError(err);
        for (const [idx] of files) this.d.tasks.fileFailed(task.id, idx, e.code, e.message);
        this.finishFromFiles(task);
      }
      return;
    }
    await this.forEachPending(task, async (f) => {
      const r = reads.get(f.idx);
      if (!r) return;
      const out = await this.d.pool.run<ExtractOutcome>(
        { type: 'extract', files: [{ ...r.src, format: r.read.format }], ...req },
        timeoutForPages(this.d.settings, r.read.pageCount),
      );
      if (this.stopping) return;
      this.d.tasks.fileSucceeded(task.id, f.idx, { result: out.results, pageCount: r.read.pageCount });
    });
    if (this.stopping) return;
    this.finishFromFiles(task);
  }

  /** An unexpected failure (not a file's own) must not leave a task PROCESSING: fail what is left and finish. */
  private failRemaining(taskId: string, e: DocError): void {
    if (this.stopping) return;
    try {
      const task = this.d.tasks.get(taskId);
      if (!task || task.status !== 'PROCESSING') return;
      for (const f of this.d.tasks.files(taskId)) if (f.status === 'PENDING') this.d.tasks.fileFailed(taskId, f.idx, e.code, e.message);
      this.finishFromFiles(task);
    } catch (err) {
      this.d.log(`task ${taskId} could not be closed: ${(err as Error).message}; it resumes at the next start`);
    }
  }

  /** Final state from the files: SUCCESS if any succeeded, else ERROR (parse) / FAILED (others). Debits in the same transaction. */
  private finishFromFiles(task: TaskRow, taskResult?: unknown[]): void {
    const files = this.d.tasks.files(task.id);
    if (files.some((f) => f.status === 'PENDING')) return;
    const ok = files.filter((f) => f.status === 'SUCCESS');
    const pages = ok.reduce((n, f) => n + f.page_count, 0);
    const failedStatus: TaskStatus = task.resource === 'parse' || task.resource === 'parse-v2' ? 'ERROR' : 'FAILED';
    const first = files.find((f) => f.status === 'FAILED');
    const status: TaskStatus = ok.length > 0 ? 'SUCCESS' : failedStatus;
    const kind = task.resource === 'parse-v2' ? 'parse' : task.resource;
    this.d.tasks.finish(
      task.id,
      {
        status,
        pages,
        ...(status !== 'SUCCESS' ? { errCode: first?.err_code ?? 'INVALID_DOCUMENT', errMessage: first?.err_message ?? 'no file could be processed' } : {}),
        ...(taskResult ? { result: taskResult } : {}),
      },
      pages > 0 ? () => this.d.usage.debit(task.key_id, pages, kind, task.id) : undefined,
    );
  }
}

export function asDocError(err: unknown): DocError {
  if (err instanceof DocError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'ENOSPC') return new DocError('INVALID_DOCUMENT', `the result could not be stored: disk full (${e.message})`);
  return new DocError('INVALID_DOCUMENT', `the file could not be processed: ${e?.message ?? String(err)}`);
}
