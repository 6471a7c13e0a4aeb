import { readFile, stat } from 'node:fs/promises';
import type { RgbaImage } from '../core/image.js';
import type { DocumentFormat, DocumentPages, Page, TextLine } from '../core/page.js';
import type { BBox } from '../core/geometry.js';
import { bboxIntersection, bboxArea } from '../core/geometry.js';
import { DocError } from '../core/errors.js';
import { detectFormat } from '../formats/detect-format.js';
import { openPdf, type PdfDocument } from '../formats/pdf/pdfjs-loader.js';
import { readPdfPage } from '../formats/pdf/read-pdf.js';
import { decodeImagePages, isRasterFormat } from '../formats/image-decode.js';
import { readOfficeDocument, isOfficeFormat } from '../formats/office/read-office.js';
import { renderPdfPage } from './render/render-pdf-page.js';
import { flattenAlpha, rotateImage } from './ocr/page-raster.js';
import { analyseRaster } from './raster/analyse-raster.js';

export type OcrPolicy = 'auto' | 'always' | 'never';

export interface ReadDocumentOptions {
  fileName: string;
  format?: DocumentFormat;
  /** auto: OCR pages (and large image regions) without a usable text layer; always: OCR every page image; never: no OCR. */
  ocr?: OcrPolicy;
  /** Read only the first N pages of a PDF (previews, benchmarks); all pages when absent. */
  maxPages?: number;
  /**
   * Also OCR large pictures that carry no text on PDF pages that do have a text layer (charts, pasted
   * scans). Off by default: it renders such pages, and reading a born-digital page must stay fast.
   */
  ocrImageRegions?: boolean;
}

/** Files larger than this are refused before reading (the API limit is 100 MB). */
const MAX_FILE_BYTES = 200 * 1024 * 1024;
/** An image region this large (share of the page) with no text over it is OCR'd on a page that has text. */
const IMAGE_REGION_OCR_SHARE = 0.15;

/**
 * Read a document into the page model: text layers, vector rules and image regions from the file,
 * OCR where the file has no usable text. Damaged, encrypted, oversized and bomb files throw
 * DocError('INVALID_DOCUMENT') with a message that says what is wrong.
 */
export async function readDocument(path: string, opts: ReadDocumentOptions): Promise<DocumentPages> {
  try {
    return await readDocumentUnchecked(path, opts);
  } catch (err) {
    if (err instanceof DocError) throw err;
    // Whatever a reader library throws on a malformed file ends as this file's failure, never the process's.
    const reason = err instanceof Error ? err.message : String(err);
    throw new DocError('INVALID_DOCUMENT', `${opts.fileName || 'the file'} could not be read (${reason.slice(0, 300)})`);
  }
}

async function readDocumentUnchecked(path: string, opts: ReadDocumentOptions): Promise<DocumentPages> {
  const info = await stat(path).catch(() => null);
  if (!info || !info.isFile()) throw new DocError('INVALID_DOCUMENT', `the file ${opts.fileName} cannot be opened`);
  if (info.size === 0) throw new DocError('INVALID_DOCUMENT', 'the file is empty (0 bytes)');
  if (info.size > MAX_FILE_BYTES) throw new DocError('INVALID_DOCUMENT', `the file is ${Math.round(info.size / 1048576)} MB; at most ${MAX_FILE_BYTES / 1048576} MB are read`);
  const format = opts.format ?? (await detectFormat(path, opts.fileName));
  if (!format) throw new DocError('INVALID_DOCUMENT', `${opts.fileName || 'the file'} is not a supported document type (its content matches no supported format)`);
  const policy = opts.ocr ?? 'auto';
  if (format === 'pdf') return { format, pages: await readPdfDocument(path, policy, opts.maxPages, opts.ocrImageRegions ?? false) };
  if (isRasterFormat(format)) return { format, pages: await readImageDocument(path, format, policy) };
  if (isOfficeFormat(format)) return { format, pages: await readOfficeDocument(path, format, opts.fileName) };
  throw new DocError('INVALID_DOCUMENT', `${format} files cannot be read`);
}

type OcrImage = (image: RgbaImage, opts?: { detectOrientation?: boolean }) => Promise<{ lines: TextLine[]; rotation: 0 | 90 | 180 | 270; width: number; height: number }>;

let ocrModule: Promise<OcrImage> | null = null;
/** The OCR engine is heavy (ONNX sessions): load it only when a page needs it. */
function loadOcr(): Promise<OcrImage> {
  ocrModule ??= import('./ocr/ocr-page.js').then((m) => (m as { ocrImage: OcrImage }).ocrImage);
  return ocrModule;
}

/**
 * OCR a page image. Ruling lines and graphics regions come from the pixels (vision/raster); a PDF page's vector
 * rules and pictures (`base`, in page pixels) stay when the page was not turned. `pixelScale` takes the image's
 * pixels to page pixels (144 / render dpi for a PDF page); lines are scaled by the caller.
 */
async function ocrPage(image: RgbaImage, pageNumber: number, base?: Page, pixelScale = 1): Promise<Page> {
  const ocrImage = await loadOcr();
  const r = await ocrImage(image, { detectOrientation: true });
  const raster = analyseRaster(rotateImage(flattenAlpha(image), r.rotation), r.lines);
  const k = pixelScale;
  const q = (v: number): number => Math.round(v * k * 10) / 10;
  const rasterRules = raster.rules.map((l) => ({ x1: q(l.x1), y1: q(l.y1), x2: q(l.x2), y2: q(l.y2), width: q(l.width) }));
  const rasterImages = raster.images.map((i) => ({ bbox: i.bbox.map((v) => Math.round(v * k)) as BBox }));
  const kept = r.rotation === 0 && base ? base : null;
  // A scanned PDF page's picture is the whole page: only pictures smaller than the page say where graphics are.
  const pageArea = r.width * r.height * k * k;
  const vectorImages = (kept?.images ?? []).filter((i) => bboxArea(i.bbox) < 0.85 * pageArea);
  return {
    pageNumber,
    width: r.width,
    height: r.height,
    lines: r.lines,
    rules: kept && kept.rules.length > 0 ? kept.rules : rasterRules,
    images: [...vectorImages, ...rasterImages.filter((i) => !vectorImages.some((v) => bboxIntersection(v.bbox, i.bbox) > 0.5 * bboxArea(i.bbox)))],
    ocr: true,
    rotation: r.rotation,
  };
}

async function readImageDocument(path: string, format: DocumentFormat, policy: OcrPolicy): Promise<Page[]> {
  const images = await decodeImagePages(path, format);
  const pages: Page[] = [];
  for (const [i, image] of images.entries()) {
    if (policy === 'never') {
      pages.push({ pageNumber: i + 1, width: image.width, height: image.height, lines: [], rules: [], images: [{ bbox: [0, 0, image.width, image.height] }], ocr: false, rotation: 0 });
    } else {
      pages.push(await ocrPage(image, i + 1));
    }
  }
  return pages;
}

async function readPdfDocument(path: string, policy: OcrPolicy, maxPages: number | undefined, imageRegions: boolean): Promise<Page[]> {
  const doc = await openPdf(new Uint8Array(await readFile(path)));
  try {
    const pages: Page[] = [];
    const last = maxPages && maxPages > 0 ? Math.min(doc.numPages, maxPages) : doc.numPages;
    for (let n = 1; n <= last; n++) pages.push(await readPdfPageWithOcr(doc, n, policy, imageRegions));
    return pages;
  } finally {
    await doc.destroy();
  }
}

async function readPdfPageWithOcr(doc: PdfDocument, n: number, policy: OcrPolicy, imageRegions: boolean): Promise<Page> {
  let read: Awaited<ReturnType<typeof readPdfPage>> | null = null;
  try {
    read = await readPdfPage(doc, n);
  } catch (err) {
    // A page whose content stream is damaged may still render: OCR it, or fail with the reader's reason.
    if (policy === 'never') throw err;
  }
  if (policy === 'never') return read!.page;
  if (!read || policy === 'always' || (!read.quality.usable && read.hasInk)) {
    return ocrPdfPage(doc, n, read?.page);
  }
  const page = read.page;
  if (!imageRegions) return page;
  const bare = page.images.filter((img) => isLargeBareImage(img.bbox, page));
  if (bare.length === 0) return page;
  // Mixed page: a scanned or pasted picture of text sits beside the text layer. OCR just those regions.
  const image = await renderPdfPage(doc, n, 144);
  const ocrImage = await loadOcr();
  for (const region of bare) {
    const crop = cropImage(image, region.bbox);
    if (!crop) continue;
    const r = await ocrImage(crop, { detectOrientation: false });
    for (const line of r.lines) page.lines.push(offsetLine(line, region.bbox[0], region.bbox[1]));
  }
  page.lines.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  return page;
}

/** Scans are read at 200 dpi (small print stays legible to the recogniser), then boxes go back to 144 dpi. */
const OCR_DPI = 200;
const OCR_MAX_PIXELS = 40_000_000;

async function ocrPdfPage(doc: PdfDocument, n: number, base: Page | undefined): Promise<Page> {
  const pdfPage = await doc.getPage(n);
  const { width, height } = pdfPage.getViewport({ scale: 1 });
  const dpi = Math.max(36, Math.min(OCR_DPI, 72 * Math.sqrt(OCR_MAX_PIXELS / Math.max(1, width * height))));
  const image = await renderPdfPage(doc, n, dpi);
  const k = 144 / dpi;
  const page = await ocrPage(image, n, base, k);
  const scale = (b: BBox): BBox => [b[0] * k, b[1] * k, b[2] * k, b[3] * k].map((v) => Math.round(v * 10) / 10) as BBox;
  // The same page size as the text-layer reading (viewport at 144 dpi), turned if OCR turned the page.
  const [w144, h144] = [Math.round(width * 2), Math.round(height * 2)];
  [page.width, page.height] = page.rotation === 90 || page.rotation === 270 ? [h144, w144] : [w144, h144];
  page.lines = page.lines.map((l) => ({
    ...l,
    bbox: scale(l.bbox),
    fontSize: Math.round(l.fontSize * k * 10) / 10,
    runs: l.runs.map((r) => ({ ...r, bbox: scale(r.bbox), fontSize: Math.round(r.fontSize * k * 10) / 10 })),
  }));
  return page;
}

function isLargeBareImage(box: BBox, page: Page): boolean {
  if (bboxArea(box) < IMAGE_REGION_OCR_SHARE * page.width * page.height) return false;
  const covered = page.lines.reduce((s, l) => s + bboxIntersection(l.bbox, box), 0);
  return covered < 0.02 * bboxArea(box);
}

function cropImage(img: RgbaImage, box: BBox): RgbaImage | null {
  const x1 = Math.max(0, Math.floor(box[0]));
  const y1 = Math.max(0, Math.floor(box[1]));
  const x2 = Math.min(img.width, Math.ceil(box[2]));
  const y2 = Math.min(img.height, Math.ceil(box[3]));
  const w = x2 - x1;
  const h = y2 - y1;
  if (w < 16 || h < 16) return null;
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(((y1 + y) * img.width + x1) * 4, ((y1 + y) * img.width + x2) * 4), y * w * 4);
  return { width: w, height: h, data };
}

function offsetLine(line: TextLine, dx: number, dy: number): TextLine {
  const move = (b: BBox): BBox => [b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy];
  return { ...line, bbox: move(line.bbox), runs: line.runs.map((r) => ({ ...r, bbox: move(r.bbox) })) };
}
