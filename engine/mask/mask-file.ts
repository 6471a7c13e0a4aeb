import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { DocError } from '../core/errors.js';
import type { BBox } from '../core/geometry.js';
import type { RgbaImage } from '../core/image.js';
import type { DocumentFormat, DocumentPages } from '../core/page.js';
import type { MaskedRegion } from '../core/results.js';
import { decodeImagePages } from '../formats/image-decode.js';
import { openPdf } from '../formats/pdf/pdfjs-loader.js';
import { renderPdfPage } from '../vision/render/render-pdf-page.js';
import { burnBoxes, pageBoxToRaster } from './burn-boxes.js';
import { encodeBmp, encodeCanvasImage, encodeTiff } from './encode-image.js';
import { findMaskRegions } from './find-mask-regions.js';
import { DEFAULT_MASK_FIELDS } from './mask-categories.js';
import { createImagePdf } from './write-image-pdf.js';

export interface MaskFileInput {
  path: string;
  fileName: string;
  format: DocumentFormat;
  doc: DocumentPages;
  /** json_schema field names; empty means the spec's six. */
  fields: string[];
  outPath: string;
}

export interface MaskFileOutput {
  pageCount: number;
  maskedFields: string[];
  regions: MaskedRegion[];
  outPath: string;
}

const MASKABLE: ReadonlySet<DocumentFormat> = new Set<DocumentFormat>(['pdf', 'png', 'jpg', 'bmp', 'tiff']);

/**
 * Masks one medical-record file: finds personal data in its text lines, burns opaque boxes into the
 * page pixels and writes the copy in the input's format to outPath (atomically). A PDF comes back as
 * an image-only PDF (every page rasterised at 144 dpi), so no masked text survives in a text layer.
 */
export async function maskFile(input: MaskFileInput): Promise<MaskFileOutput> {
  const { path, format, doc, outPath } = input;
  if (!MASKABLE.has(format)) {
    throw new DocError('INVALID_DOCUMENT', `masking takes JPG, PNG, BMP, TIFF and PDF files, not ${format}`);
  }
  const fields = input.fields.length > 0 ? input.fields : [...DEFAULT_MASK_FIELDS];
  const { regions, maskedFields } = findMaskRegions(doc, fields);

  const burn = (raster: RgbaImage, pageNumber: number): RgbaImage => {
    const page = doc.pages.find((p) => p.pageNumber === pageNumber);
    // A page that was never read cannot have been checked: fail the file rather than pass it on unmasked.
    if (!page) throw new DocError('INVALID_DOCUMENT', `page ${pageNumber} was not read, so it cannot be checked for personal data`);
    const boxes: BBox[] = regions
      .filter((r) => r.page_number === pageNumber)
      .map((r) => pageBoxToRaster(r.bbox, page.width, page.height, page.rotation, raster.width, raster.height));
    burnBoxes(raster, boxes);
    return raster;
  };

  let bytes: Uint8Array;
  let pageCount: number;
  if (format === 'pdf') {
    // Page by page: render at 144 dpi (the page model's space), burn, add to the new image-only PDF.
    const pdf = await openPdf(new Uint8Array(await readFile(path)));
    try {
      const writer = await createImagePdf(144);
      pageCount = pdf.numPages;
      for (let n = 1; n <= pageCount; n++) await writer.addPage(burn(await renderPdfPage(pdf, n, 144), n));
      bytes = await writer.save();
    } finally {
      await pdf.destroy();
    }
  } else {
    const rasters = (await decodeImagePages(path, format)).map((r, i) => burn(r, i + 1));
    pageCount = rasters.length;
    if (format === 'tiff') bytes = encodeTiff(rasters);
    else if (format === 'bmp') bytes = encodeBmp(rasters[0]!);
    else bytes = await encodeCanvasImage(rasters[0]!, format === 'png' ? 'png' : 'jpg');
  }
  const tmp = `${outPath}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, outPath);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  return { pageCount, maskedFields, regions, outPath };
}

