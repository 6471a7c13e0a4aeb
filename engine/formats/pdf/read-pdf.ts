import type { Page } from '../../core/page.js';
import { DocError } from '../../core/errors.js';
import { loadPdfJs, type PdfDocument, type PdfPage } from './pdfjs-loader.js';
import { buildTextLines, type PdfFontFace, type PdfFontStyle, type PdfTextItem } from './pdf-text-lines.js';
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
export async function readPdfPage(doc: PdfDocument, pageNumber: number): Promise<PdfPageRead> {
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
    const content = await pdfPage.getTextContent();
    const fonts = new Map<string, PdfFontFace | undefined>();
    const fontOf = (loadedName: string): PdfFontFace | undefined => {
      if (fonts.has(loadedName)) return fonts.get(loadedName);
      let face: PdfFontFace | undefined;
      try {
        if (pdfPage.commonObjs.has(loadedName)) {
          const f = pdfPage.commonObjs.get(loadedName) as { name?: string; bold?: boolean; black?: boolean; italic?: boolean };
          const name = (f.name ?? '').replace(/^[A-Z]{6}\+/, '');
          face = {
            name,
            bold: Boolean(f.bold || f.black) || /bold|black|heavy|semibold|demibold|[-,]bd\b|W[6-9]\b/i.test(name),
            italic: Boolean(f.italic) || /italic|oblique/i.test(name),
          };
        }
      } catch {
        face = undefined;
      }
      fonts.set(loadedName, face);
      return face;
    };
    const items = content.items.filter((it) => 'str' in it) as unknown as PdfTextItem[];
    const lines = buildTextLines(items, content.styles as Record<string, PdfFontStyle>, viewport.transform, fontOf);
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

/** Read every page's text layer. */
export async function readPdfPages(doc: PdfDocument): Promise<PdfPageRead[]> {
  const out: PdfPageRead[] = [];
  for (let n = 1; n <= doc.numPages; n++) out.push(await readPdfPage(doc, n));
  return out;
}
