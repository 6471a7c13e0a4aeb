/**
 * A worker child process (child_process.fork): runs untrusted CPU work (decoding, rendering, OCR,
 * layout, masking) one job at a time. If it dies, only its current file fails; the pool replaces it.
 * Pipelines are loaded with dynamic import() so that a missing or broken module fails the file, not the server.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocError } from '../core/errors.js';
import type { DocumentFormat, DocumentPages } from '../core/page.js';
import { BlobStore } from '../store/blob-store.js';
import { PAGES_CACHE_NAME, type SourceFile, type WorkerJob, type WorkerReply, type WorkerRequest } from './worker-jobs.js';

// The pipelines' own signatures (type-only: erased at compile, so the modules still load lazily below).
type DetectFormat = typeof import('../formats/detect-format.js').detectFormat;
type ReadDocument = typeof import('../vision/read-document.js').readDocument;
type BuildParseResult = typeof import('../parse/build-result.js').buildParseResult;
type RunExtraction = typeof import('../extract/run-extraction.js').runExtraction;
type MaskFile = typeof import('../mask/mask-file.js').maskFile;
type DetectDocumentLayout = typeof import('../vision/layout/learned/detect-layout.js').detectDocumentLayout;

const FORMAT_LABEL: Partial<Record<DocumentFormat, string>> = { jpg: 'JPEG', tiff: 'TIFF', png: 'PNG', bmp: 'BMP', gif: 'GIF', webp: 'WebP' };

async function loadEntry<T>(modulePath: string, exportName: string, what: string): Promise<T> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(modulePath)) as Record<string, unknown>;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ERR_MODULE_NOT_FOUND' ? 'is not part of this build' : `failed to load (${e.message})`;
    throw new DocError('INVALID_DOCUMENT', `the ${what} engine ${why}; the file was not processed`);
  }
  const fn = mod[exportName];
  if (typeof fn !== 'function') throw new DocError('INVALID_DOCUMENT', `the ${what} engine does not export ${exportName}; the file was not processed`);
  return fn as T;
}

const detectFormat = () => loadEntry<DetectFormat>('../formats/detect-format.js', 'detectFormat', 'format detection');
const readDocument = () => loadEntry<ReadDocument>('../vision/read-document.js', 'readDocument', 'document reading');
const buildParseResult = () => loadEntry<BuildParseResult>('../parse/build-result.js', 'buildParseResult', 'parse');
const runExtraction = () => loadEntry<RunExtraction>('../extract/run-extraction.js', 'runExtraction', 'extraction');
const maskFile = () => loadEntry<MaskFile>('../mask/mask-file.js', 'maskFile', 'masking');
const detectDocumentLayout = () => loadEntry<DetectDocumentLayout>('../vision/layout/learned/detect-layout.js', 'detectDocumentLayout', 'learned layout');

/**
 * A learned layout model placed in the user's model folder (handed to this child as DOCAI_MODEL_DIR) looks at the
 * page images before parse. Without a model folder nothing is loaded; a model that fails leaves parse to the rules.
 */
async function withLearnedLayout(doc: DocumentPages, file: SourceFile): Promise<DocumentPages> {
  if (!process.env.DOCAI_MODEL_DIR) return doc;
  try {
    return await (await detectDocumentLayout())(doc, { path: file.path, format: doc.format });
  } catch (err) {
    process.stderr.write(`docai worker: learned layout skipped (${(err as Error).message}); parsing with the layout rules\n`);
    return doc;
  }
}

function injectFault(fileName: string): Promise<void> | void {
  const spec = process.env.DOCAI_FAULT;
  if (!spec) return;
  for (const item of spec.split(',')) {
    const [point, marker] = item.split(':');
    if (!marker || !fileName.includes(marker)) continue;
    if (point === 'worker-crash') process.kill(process.pid, 'SIGKILL');
    if (point === 'worker-hang') return new Promise<void>(() => setInterval(() => undefined, 1 << 30));
  }
}

/**
 * The reader build that made a cached page model: a page model read by an older build (before an app
 * update) is read again rather than served stale.
 */
let readerStamp: string | null = null;
function currentReaderStamp(): string {
  if (readerStamp === null) {
    // the newest compiled file of the reader layers: tsc -b rewrites only the files that changed
    let newest = 0;
    for (const layer of ['../formats/', '../vision/']) {
      const dir = fileURLToPath(new URL(layer, import.meta.url));
      try {
        for (const name of readdirSync(dir, { recursive: true }) as string[]) {
          if (name.endsWith('.js')) newest = Math.max(newest, statSync(join(dir, name)).mtimeMs);
        }
      } catch {
        // a layer missing from this build: the read fails with its own message
      }
    }
    readerStamp = String(newest);
  }
  return readerStamp;
}

/** The page model of a file, from the cache by content hash when this exact file was read before. */
async function loadPages(store: BlobStore, file: SourceFile, accepted: DocumentFormat[] | null, knownFormat?: DocumentFormat): Promise<DocumentPages> {
  await injectFault(file.fileName);
  const cached = store.readDerived(file.blobHash, PAGES_CACHE_NAME);
  if (cached) {
    const entry = JSON.parse(cached) as { reader?: string; doc?: DocumentPages };
    if (entry.reader === currentReaderStamp() && entry.doc) {
      const doc = entry.doc;
      if (accepted && !accepted.includes(doc.format)) throw notAccepted(doc.format);
      return doc;
    }
  }
  const format = knownFormat ?? (await (await detectFormat())(file.path, file.fileName));
  if (!format) throw new DocError('INVALID_DOCUMENT', `${file.fileName}: the file's content is not a supported document format`);
  if (accepted && !accepted.includes(format)) throw notAccepted(format);
  const doc = await (await readDocument())(file.path, { fileName: file.fileName, format });
  if (!doc || !Array.isArray(doc.pages)) throw new DocError('INVALID_DOCUMENT', `${file.fileName}: the reader returned no pages`);
  if (doc.pages.length === 0) throw new DocError('INVALID_DOCUMENT', `${file.fileName}: the document has no pages`);
  store.writeDerived(file.blobHash, PAGES_CACHE_NAME, JSON.stringify({ reader: currentReaderStamp(), doc }));
  return doc;
}

function notAccepted(format: DocumentFormat): DocError {
  return new DocError('INVALID_DOCUMENT', `${FORMAT_LABEL[format] ?? format.toUpperCase()} files are not accepted by this endpoint`);
}

async function run(dataDir: string, job: WorkerJob): Promise<unknown> {
  const store = new BlobStore(dataDir);
  switch (job.type) {
    case 'read': {
      const doc = await loadPages(store, job.file, job.accepted);
      return { format: doc.format, pageCount: doc.pages.length };
    }
    case 'parse': {
      const doc = await withLearnedLayout(await loadPages(store, job.file, job.accepted), job.file);
      const build = await buildParseResult();
      const result = build(doc, job.file.fileName, job.mode);
      const indexParse = job.withIndexParse ? (job.mode === 'pro' ? result : build(doc, job.file.fileName, 'pro')) : undefined;
      return { format: doc.format, pageCount: doc.pages.length, result, indexParse };
    }
    case 'extract': {
      const files = [];
      for (const f of job.files) files.push({ fileName: f.fileName, doc: await loadPages(store, f, null, f.format) });
      const results = await (await runExtraction())(files, { mode: job.mode, jsonSchema: job.jsonSchema, prompt: job.prompt });
      if (!Array.isArray(results)) throw new DocError('INVALID_DOCUMENT', 'the extraction engine returned no results');
      return { results };
    }
    case 'mask': {
      const doc = await loadPages(store, job.file, null, job.file.format);
      const out = await (await maskFile())({
        path: job.file.path,
        fileName: job.file.fileName,
        format: job.file.format,
        doc,
        fields: job.fields,
        outPath: job.outPath,
      });
      return out;
    }
  }
}

function toFailure(err: unknown): { code: string; message: string } {
  if (err instanceof DocError) return { code: err.code, message: err.message };
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  if (e && e.name === 'DocError' && typeof e.code === 'string') return { code: e.code, message: String(e.message) };
  const msg = e && typeof e.message === 'string' ? e.message : String(err);
  return { code: 'INVALID_DOCUMENT', message: `the file could not be processed: ${msg}` };
}

process.on('message', (msg: WorkerRequest) => {
  run(msg.dataDir, msg.job).then(
    (value) => process.send!({ id: msg.id, ok: true, value } satisfies WorkerReply),
    (err: unknown) => process.send!({ id: msg.id, ok: false, ...toFailure(err) } satisfies WorkerReply),
  );
});
process.on('disconnect', () => process.exit(0));
// pdf.js can leave an internal promise rejected with no handler after the read it served has settled
// (a damaged xref found by the fuzzer: ParserEOFException). Node would end this child for it, failing
// whichever file it is reading next. The job's own outcome is reported by its own promise (or its
// timeout), so a stray rejection is noted and the child carries on.
process.on('unhandledRejection', (reason) => {
  const r = reason as { name?: unknown; message?: unknown } | null;
  process.stderr.write(`docai worker: ignored a stray rejection from a reader (${String(r?.name ?? 'Error')}: ${String(r?.message ?? reason).slice(0, 200)})\n`);
});
// Load the reader before taking work, so that a job's timeout measures the job, not module loading.
// A module that fails to load fails each job with a clear message (loadEntry), not the child.
void Promise.allSettled([detectFormat(), readDocument()]).then(() => process.send!({ ready: true } satisfies WorkerReply));
