import { PDFDocument } from 'pdf-lib';
import type { RgbaImage } from '../core/image.js';
import { encodeCanvasImage } from './encode-image.js';

export interface ImagePdfWriter {
  addPage(raster: RgbaImage): Promise<void>;
  save(): Promise<Uint8Array>;
}

/**
 * An image-only PDF: one page per raster (rendered at `dpi`), no text layer, no fonts, and neutral
 * metadata, so that neither copying text nor reading the document info can reveal a masked value.
 * Pages are added one at a time so that a long document never holds all its page images at once.
 */
export async function createImagePdf(dpi = 144): Promise<ImagePdfWriter> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  return {
    async addPage(raster) {
      const img = await pdf.embedJpg(await encodeCanvasImage(raster, 'jpg', 88));
      const w = (raster.width * 72) / dpi;
      const h = (raster.height * 72) / dpi;
      pdf.addPage([w, h]).drawImage(img, { x: 0, y: 0, width: w, height: h });
    },
    async save() {
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
    },
  };
}
