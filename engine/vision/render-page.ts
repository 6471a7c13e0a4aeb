import { readFile } from 'node:fs/promises';
import type { RgbaImage } from '../core/image.js';
import type { DocumentFormat } from '../core/page.js';
import { DocError } from '../core/errors.js';
import { openPdf } from '../formats/pdf/pdfjs-loader.js';
import { decodeImagePages, isRasterFormat } from '../formats/image-decode.js';
import { renderPdfPage } from './render/render-pdf-page.js';

/**
 * The image of one page: a PDF page rendered at `dpi` (default 144, the page model's pixel space),
 * an image page in its upright native pixels (dpi is ignored: the pixels are the page).
 */
export async function renderDocumentPage(path: string, format: DocumentFormat, pageNumber: number, opts: { dpi?: number } = {}): Promise<RgbaImage> {
  if (format === 'pdf') {
    const doc = await openPdf(new Uint8Array(await readFile(path)));
    try {
      return await renderPdfPage(doc, pageNumber, opts.dpi ?? 144);
    } finally {
      await doc.destroy();
    }
  }
  if (isRasterFormat(format)) {
    const pages = await decodeImagePages(path, format);
    const page = pages[pageNumber - 1];
    if (!page) throw new DocError('INVALID_PARAMETER', `page ${pageNumber} does not exist (the image has ${pages.length} pages)`);
    return page;
  }
  throw new DocError('INVALID_DOCUMENT', `page images are made for PDF and image files only, not ${format}`);
}
