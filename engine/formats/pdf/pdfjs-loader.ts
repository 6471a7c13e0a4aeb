import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DocError } from '../../core/errors.js';
import { passOperatorListsByReference } from './pdfjs-loopback-port.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy;
export type PdfPage = import('pdfjs-dist/legacy/build/pdf.mjs').PDFPageProxy;

let pdfjsPromise: Promise<PdfJs> | null = null;

/** pdf.js is large: load it once, on first use (the legacy build is the one that runs on Node). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= loadBoth();
  return pdfjsPromise;
}

/**
 * The legacy build carries core-js, which on Node 20 swaps Array.prototype.push for a spec-pedantic
 * JavaScript version (process-wide: every push in the process, ours and pdf.js's, gets several times
 * slower). The worker half is loaded here too, so that both are in before the native push is put back.
 */
async function loadBoth(): Promise<PdfJs> {
  const nativePush = Array.prototype.push;
  const nativeUnshift = Array.prototype.unshift;
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const worker = (await import('pdfjs-dist/legacy/build/pdf.worker.mjs' as string)) as { WorkerMessageHandler: unknown };
  // pdf.js runs its "fake worker" in this thread and looks for it here first.
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  for (const [name, fn] of [['push', nativePush], ['unshift', nativeUnshift]] as const) {
    if (Array.prototype[name] !== fn) Object.defineProperty(Array.prototype, name, { value: fn, writable: true, configurable: true, enumerable: false });
  }
  // One throwaway fake worker gives the port class, whose operator-list messages then skip the deep copy.
  const probe = new pdfjs.PDFWorker({ verbosity: 0 } as ConstructorParameters<PdfJs['PDFWorker']>[0]);
  try {
    await probe.promise;
    if (probe.port) passOperatorListsByReference(probe.port as object);
  } finally {
    probe.destroy();
  }
  return pdfjs;
}

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** Limits on what one PDF may make us do (pages, decoded image sizes). */
export const PDF_MAX_PAGES = 5000;

/**
 * Open a PDF from its bytes. Damaged, encrypted and empty files become DocError INVALID_DOCUMENT
 * with a message a person can act on; nothing else escapes.
 */
export async function openPdf(data: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    stopAtErrors: false,
    // Local files shipped with pdfjs-dist: predefined CJK CMaps, the standard 14 fonts, image decoders.
    cMapUrl: join(pdfjsRoot, 'cmaps') + '/',
    cMapPacked: true,
    standardFontDataUrl: join(pdfjsRoot, 'standard_fonts') + '/',
    wasmUrl: join(pdfjsRoot, 'wasm') + '/',
    // Never decode images larger than 100 megapixels (a bomb in an XObject).
    maxImageSize: 100_000_000,
    // A password prompt would hang the task: fail at once instead.
  } as Parameters<PdfJs['getDocument']>[0]);
  task.onPassword = () => {
    void task.destroy();
  };
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (err) {
    throw pdfOpenError(err);
  }
  if (doc.numPages === 0) {
    await doc.destroy();
    throw new DocError('INVALID_DOCUMENT', 'the PDF has no pages');
  }
  if (doc.numPages > PDF_MAX_PAGES) {
    await doc.destroy();
    throw new DocError('INVALID_DOCUMENT', `the PDF has ${doc.numPages} pages; at most ${PDF_MAX_PAGES} are accepted`);
  }
  return doc;
}

function pdfOpenError(err: unknown): DocError {
  const name = (err as { name?: string } | null)?.name ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException' || /password/i.test(message) || /destroyed/i.test(message)) {
    return new DocError('INVALID_DOCUMENT', 'the PDF is encrypted (password protected); remove the password and upload it again');
  }
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
    return new DocError('INVALID_DOCUMENT', `the PDF is damaged and cannot be read (${message})`);
  }
  return new DocError('INVALID_DOCUMENT', `the PDF cannot be read (${message})`);
}
