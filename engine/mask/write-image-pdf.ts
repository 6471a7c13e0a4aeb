import { PDFDocument } from 'pdf-lib';
import type { RgbaImage } from '../core/image.js';
import { encodeCanvasImage } from './encode-image.js';

/**
 * An image-only PDF: one page per raster (rendered at `dpi`), no text layer, no fonts, and neutral
 * metadata, so that neither copying text nor reading the document info can reveal a masked value.
 */
export async function writeImagePdf(pages: readonly RgbaImage[], dpi = 144): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  for (const raster of pages) {
    const jpg = await encodeCanvasImage(raster, 'jpg', 88);
    const img = await pdf.embedJpg(jpg);
    const w = (raster.width * 72) / dpi;
    const h = (raster.height * 72) / dpi;
    const page = pdf.addPage([w, h]);
    page.drawImage(img, { x: 0, y: 0, width: w, height: h });
  }
  const epoch = new Date(0);
  pdf.setTitle('Masked document');
  pdf.setAuthor('');
  pdf.setSubject('');
  pdf.setKeywords([]);
  pdf.setCreator('DocAI');
  pdf.setProducer('DocAI');
  pdf.setCreationDate(epoch);
  pdf.setModificationDate(epoch);
  return pdf.save({ useObjectStreams: true });
}
