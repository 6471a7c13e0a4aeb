import type { Page, TextLine } from '../../core/page.js';
import { bboxIntersection, type BBox } from '../../core/geometry.js';
import { normalizeText } from '../../core/text.js';
import { DocError } from '../../core/errors.js';
import { loadPdfJs, type PdfDocument, type PdfPage } from './pdfjs-loader.js';
import { buildTextLines, groupSpansIntoLines, type PdfFontStyle, type PdfTextItem } from './pdf-text-lines.js';
import { textSpansFromOps, type OpsFont, type PdfTextOps } from './pdf-text-from-ops.js';
import { collectPageGraphics, type PdfOps } from './pdf-graphics.js';
import { assessTextLayer, type TextLayerQuality } from './text-layer-quality.js';

/** PDF pages are laid out at 144 dpi: PDF points x 2. */
export const PDF_SCALE = 2;

export interface PdfPageRead {
  page: Page;
  quality: TextLayerQuality;
  /**
   * Whether anything besides the text layer could hold text: pictures, or many curved vector paths
   * (text converted to outlines). A blank page without text has nothing to OCR.
   */
  hasInk: boolean;
}

/** Read one page's text layer, vector rules and image regions, in page pixels (144 dpi, CropBox, /Rotate). */
export async function readPdfPage(doc: PdfDocument, pageNumber: number, textSource: 'ops' | 'pdfjs' = 'ops'): Promise<PdfPageRead> {
  const pdfjs = await loadPdfJs();
  let pdfPage: PdfPage;
  try {
    pdfPage = await doc.getPage(pageNumber);
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `page ${pageNumber} of the PDF is damaged (${err instanceof Error ? err.message : String(err)})`);
  }
  try {
    const viewport = pdfPage.getViewport({ scale: PDF_SCALE });
    const width = Math.round(viewport.width);
    const height = Math.round(viewport.height);
    // The operator list first: it also hands the page's fonts to this thread, which gives their names.
    const ops = await pdfPage.getOperatorList();
    const fonts = new Map<string, OpsFont | undefined>();
    const fontOf = (loadedName: string): OpsFont | undefined => {
      if (fonts.has(loadedName)) return fonts.get(loadedName);
      let font: OpsFont | undefined;
      try {
        if (pdfPage.commonObjs.has(loadedName)) {
          const f = pdfPage.commonObjs.get(loadedName) as { name?: string; bold?: boolean; black?: boolean; italic?: boolean; fontMatrix?: number[]; ascent?: number; descent?: number; vertical?: boolean; isType3Font?: boolean };
          const name = (f.name ?? '').replace(/^[A-Z]{6}\+/, '');
          font = {
            face: {
              name,
              bold: Boolean(f.bold || f.black) || /bold|black|heavy|semibold|demibold|[-,]bd\b|W[6-9]\b/i.test(name),
              italic: Boolean(f.italic) || /italic|oblique/i.test(name),
            },
            fontMatrix: f.fontMatrix ?? [0.001, 0, 0, 0.001, 0, 0],
            ascent: f.ascent ?? 0.85,
            descent: f.descent ?? -0.2,
            vertical: Boolean(f.vertical),
            type3: Boolean(f.isType3Font),
          };
        }
      } catch {
        font = undefined;
      }
      fonts.set(loadedName, font);
      return font;
    };
    let lines: TextLine[];
    const spans = textSource === 'ops' ? textSpansFromOps(ops.fnArray, ops.argsArray, pdfjs.OPS as unknown as PdfTextOps, viewport.transform, fontOf) : null;
    if (spans) {
      lines = groupSpansIntoLines(spans);
    } else {
      // pdf.js's own text extraction: a second pass over the content, for what the op reader does not follow.
      const content = await pdfPage.getTextContent({ disableNormalization: true });
      const items = content.items.filter((it) => 'str' in it) as unknown as PdfTextItem[];
      lines = buildTextLines(items, content.styles as Record<string, PdfFontStyle>, viewport.transform, (n) => fontOf(n)?.face);
    }
    // Field values already painted by their appearance streams (part of the operator list) are not added twice.
    const fields = (await formFieldLines(doc, pdfPage, viewport.transform)).filter(
      (f) => !lines.some((l) => l.text.includes(f.text) && bboxIntersection(l.bbox, f.bbox) > 0),
    );
    if (fields.length) {
      lines.push(...fields);
      lines.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
    }
    const graphics = collectPageGraphics(ops.fnArray, ops.argsArray, pdfjs.OPS as unknown as PdfOps, viewport.transform, width, height);
    const quality = assessTextLayer(lines.map((l) => l.text).join('\n'));
    const page: Page = {
      pageNumber,
      width,
      height,
      lines: quality.usable ? lines : [],
      rules: graphics.rules,
      images: graphics.images,
      ocr: false,
      rotation: 0,
    };
    const hasInk = graphics.images.length > 0 || graphics.curvedPaths >= 20 || quality.chars > 0;
    return { page, quality, hasInk };
  } finally {
    pdfPage.cleanup();
  }
}

/**
 * Filled form fields (AcroForm widgets) keep their values outside the content stream, so the text
 * layer misses them: each non-empty text value becomes a line at its widget's rectangle.
 */
async function formFieldLines(doc: PdfDocument, pdfPage: PdfPage, viewport: number[]): Promise<TextLine[]> {
  // Asking for a page's annotations makes pdf.js extract the whole page's text again when the page has
  // links or highlights (to attach the text under them): only worth it in a document that has form fields.
  if (!(await hasFormFields(doc))) return [];
  let annotations: Array<{ subtype?: string; fieldType?: string; fieldValue?: unknown; rect?: number[]; hidden?: boolean }>;
  try {
    annotations = (await pdfPage.getAnnotations({ intent: 'display' })) as typeof annotations;
  } catch {
    return [];
  }
  const out: TextLine[] = [];
  for (const a of annotations) {
    if (a.subtype !== 'Widget' || a.fieldType !== 'Tx' || a.hidden || !a.rect) continue;
    const value = typeof a.fieldValue === 'string' ? normalizeText(a.fieldValue).trim() : '';
    if (!value) continue;
    const [x1, y1, x2, y2] = a.rect as [number, number, number, number];
    const p = [apply(viewport, x1, y1), apply(viewport, x2, y2)];
    const bbox: BBox = [Math.min(p[0]![0], p[1]![0]), Math.min(p[0]![1], p[1]![1]), Math.max(p[0]![0], p[1]![0]), Math.max(p[0]![1], p[1]![1])];
    const fontSize = Math.round(Math.min(bbox[3] - bbox[1], 40) * 0.7 * 10) / 10;
    out.push({ text: value, bbox, runs: [{ text: value, bbox, fontSize }], fontSize, bold: false, source: 'text', confidence: 1 });
  }
  return out;
}

const formFieldsOf = new WeakMap<PdfDocument, Promise<boolean>>();

/** Whether the document's AcroForm lists any fields (asked once per document). */
function hasFormFields(doc: PdfDocument): Promise<boolean> {
  let known = formFieldsOf.get(doc);
  if (!known) {
    known = doc.getFieldObjects().then(
      (fields) => fields !== null && Object.keys(fields).length > 0,
      () => true,
    );
    formFieldsOf.set(doc, known);
  }
  return known;
}

function apply(m: number[], x: number, y: number): [number, number] {
  return [m[0]! * x + m[2]! * y + m[4]!, m[1]! * x + m[3]! * y + m[5]!];
}

/** Read every page's text layer. */
export async function readPdfPages(doc: PdfDocument): Promise<PdfPageRead[]> {
  const out: PdfPageRead[] = [];
  for (let n = 1; n <= doc.numPages; n++) out.push(await readPdfPage(doc, n));
  return out;
}
