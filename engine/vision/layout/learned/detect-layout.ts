import { readFile } from 'node:fs/promises';
import { DocError } from '../../../core/errors.js';
import type { BBox } from '../../../core/geometry.js';
import type { RgbaImage } from '../../../core/image.js';
import type { DocumentFormat, DocumentPages, LayoutDetection, Page } from '../../../core/page.js';
import { decodeImagePages, isRasterFormat } from '../../../formats/image-decode.js';
import { openPdf } from '../../../formats/pdf/pdfjs-loader.js';
import { flattenAlpha, rotateImage } from '../../ocr/page-raster.js';
import { renderPdfPage } from '../../render/render-pdf-page.js';
import { labelMeaning } from './label-types.js';
import { findLayoutModel, type LayoutModelFiles, type LearnedLayoutMode } from './model-folder.js';
import type { LayoutDetector } from './layout-session.js';

export interface DetectLayoutOptions {
  /** The user model folder (settings.modelDir); DOCAI_MODEL_DIR when absent. */
  modelDir?: string | null;
  /** Overrides the mode from the model folder's settings. */
  mode?: LearnedLayoutMode;
  /** Where a problem with the model is reported (once per model file and message); default stderr. */
  log?: (message: string) => void;
}

const reported = new Set<string>();

function report(err: unknown, key: string, log: (m: string) => void): void {
  const msg = err instanceof DocError ? err.message : `layout model failed: ${(err as Error)?.message ?? String(err)}`;
  if (reported.has(`${key}\u0000${msg}`)) return;
  reported.add(`${key}\u0000${msg}`);
  log(`docai: ${msg}; parsing goes on with the layout rules\n`);
}

function defaultLog(m: string): void {
  process.stderr.write(m);
}

/** Pages a model can look at: those of a PDF or image whose structure the file does not state. */
function wanted(doc: DocumentPages): Page[] {
  if (doc.format !== 'pdf' && !isRasterFormat(doc.format)) return [];
  return doc.pages.filter((p) => !p.sourceBlocks && p.width > 0 && p.height > 0);
}

/** The page's image turned upright as the page model is (OCR may have turned it), transparency over white. */
function upright(img: RgbaImage, page: Page): RgbaImage {
  const turn = ((Math.round(page.rotation / 90) * 90) % 360 + 360) % 360;
  return flattenAlpha(rotateImage(img, turn as 0 | 90 | 180 | 270));
}

/** The model's boxes on one page image, in page pixels, typed through the label table. */
export async function detectPageLayout(detector: LayoutDetector, img: RgbaImage, page: Page): Promise<LayoutDetection[]> {
  const image = upright(img, page);
  const sx = page.width / image.width;
  const sy = page.height / image.height;
  const raw = await detector.detect(image);
  const round = (v: number) => Math.round(v * 10) / 10;
  return raw.map((d) => {
    const label = detector.labels[d.classId] ?? `class_${d.classId}`;
    const bbox: BBox = [round(d.bbox[0] * sx), round(d.bbox[1] * sy), round(d.bbox[2] * sx), round(d.bbox[3] * sy)];
    return { ...labelMeaning(label), label, score: Math.round(d.score * 1000) / 1000, bbox };
  });
}

/**
 * A PDF page is rendered at the size the model takes it in (never above the page model's 144 dpi): rendering at
 * 144 dpi to shrink the image to 800 x 608 after spent most of the step's time (267 of 320 ms on a 10-K page).
 */
function renderDpi(page: Page, detector: LayoutDetector): number {
  const scale = detector.inputScale(page.width, page.height);
  return 144 * Math.min(1, Math.max(0.25, Number.isFinite(scale) ? scale : 1));
}

async function forEachPageImage(path: string, format: DocumentFormat, pages: Page[], detector: LayoutDetector, visit: (page: Page, img: RgbaImage) => Promise<void>): Promise<void> {
  if (format === 'pdf') {
    const pdf = await openPdf(new Uint8Array(await readFile(path)));
    try {
      for (const page of pages) await visit(page, await renderPdfPage(pdf, page.pageNumber, renderDpi(page, detector)));
    } finally {
      await pdf.destroy();
    }
    return;
  }
  const images = await decodeImagePages(path, format);
  for (const page of pages) {
    const img = images[page.pageNumber - 1];
    if (img) await visit(page, img);
  }
}

/**
 * Runs the user's layout model (if one is placed in `<model folder>/layout/`) over the page images of a PDF or
 * image file and returns the document with `layoutDetections` and `layoutMode` on those pages; parse then lets
 * the model's regions replace or vote with the rules. With no model configured it returns `doc` as it is, having
 * looked only for the folder. A model that cannot be used is reported once and the document comes back
 * unchanged: parse goes on with the rules.
 */
export async function detectDocumentLayout(doc: DocumentPages, source: { path: string; format?: DocumentFormat }, opts: DetectLayoutOptions = {}): Promise<DocumentPages> {
  const log = opts.log ?? defaultLog;
  let files: LayoutModelFiles | null;
  try {
    files = findLayoutModel(opts.modelDir);
  } catch (err) {
    report(err, 'folder', log);
    return doc;
  }
  if (!files) return doc;
  const pages = wanted(doc);
  if (pages.length === 0) return doc;
  const mode = opts.mode ?? files.mode;
  try {
    // onnxruntime loads only when a model is there: without one, parse pays for a folder lookup and nothing else.
    const { layoutDetector } = await import('./layout-session.js');
    const detector = await layoutDetector(files);
    const found = new Map<Page, LayoutDetection[]>();
    await forEachPageImage(source.path, source.format ?? doc.format, pages, detector, async (page, img) => {
      found.set(page, await detectPageLayout(detector, img, page));
    });
    return { ...doc, pages: doc.pages.map((p) => (found.has(p) ? { ...p, layoutDetections: found.get(p)!, layoutMode: mode } : p)) };
  } catch (err) {
    report(err, files.fingerprint, log);
    return doc;
  }
}
