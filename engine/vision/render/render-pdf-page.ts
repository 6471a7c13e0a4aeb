import type { RgbaImage } from '../../core/image.js';
import { DocError } from '../../core/errors.js';
import type { PdfDocument } from '../../formats/pdf/pdfjs-loader.js';
import { MAX_IMAGE_PIXELS } from '../../formats/image-header.js';

/**
 * Render one PDF page to RGBA at `dpi` (144 = the page model's pixel space), white background,
 * CropBox and /Rotate applied. Refuses renders over 100 megapixels.
 */
export async function renderPdfPage(doc: PdfDocument, pageNumber: number, dpi = 144): Promise<RgbaImage> {
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > doc.numPages) {
    throw new DocError('INVALID_PARAMETER', `page ${pageNumber} does not exist (the PDF has ${doc.numPages} pages)`);
  }
  const page = await doc.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: dpi / 72 });
    const width = Math.max(1, Math.round(viewport.width));
    const height = Math.max(1, Math.round(viewport.height));
    if (width * height > MAX_IMAGE_PIXELS) {
      throw new DocError('INVALID_DOCUMENT', `page ${pageNumber} at ${dpi} dpi would be ${width} x ${height} pixels; at most ${MAX_IMAGE_PIXELS / 1e6} megapixels are rendered`);
    }
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    await page.render({
      canvas,
      canvasContext: ctx,
      viewport,
      background: '#ffffff',
    } as unknown as Parameters<typeof page.render>[0]).promise;
    const data = ctx.getImageData(0, 0, width, height).data;
    return { width, height, data };
  } finally {
    page.cleanup();
  }
}
