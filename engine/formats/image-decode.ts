import { readFile } from 'node:fs/promises';
import type { RgbaImage } from '../core/image.js';
import type { DocumentFormat } from '../core/page.js';
import { DocError } from '../core/errors.js';
import { MAX_IMAGE_PIXELS, readImageHeader } from './image-header.js';
import { applyOrientation } from './image-orientation.js';
import { decodePng } from './png-decode.js';

/** At most this many pages in one TIFF. */
export const MAX_TIFF_PAGES = 500;

const RASTER_FORMATS = new Set<DocumentFormat>(['png', 'jpg', 'bmp', 'tiff', 'gif', 'webp']);

export function isRasterFormat(format: DocumentFormat): boolean {
  return RASTER_FORMATS.has(format);
}

function tooLarge(width: number, height: number, page?: number): DocError {
  const where = page ? ` (page ${page})` : '';
  return new DocError(
    'INVALID_DOCUMENT',
    `the image${where} is ${width} x ${height} pixels (${Math.round((width * height) / 1e6)} megapixels); at most ${MAX_IMAGE_PIXELS / 1e6} megapixels are accepted`,
  );
}

function checkSize(width: number, height: number, page?: number): void {
  if (!(width > 0 && height > 0)) throw new DocError('INVALID_DOCUMENT', 'the image header declares no pixels (damaged file)');
  if (width * height > MAX_IMAGE_PIXELS) throw tooLarge(width, height, page);
}

/**
 * Decode an image file into upright RGBA pages: EXIF orientation applied (JPEG), every page of a TIFF.
 * Sizes are checked from the headers before anything is decoded.
 */
export async function decodeImagePages(path: string, format: DocumentFormat): Promise<RgbaImage[]> {
  if (!isRasterFormat(format)) throw new DocError('INVALID_DOCUMENT', `${format} is not an image format`);
  const buf = await readFile(path);
  return decodeImageBuffer(buf, format);
}

export async function decodeImageBuffer(buf: Buffer, format: DocumentFormat): Promise<RgbaImage[]> {
  if (format === 'tiff') return decodeTiff(buf);
  const header = readImageHeader(buf, format);
  if (!header) throw new DocError('INVALID_DOCUMENT', `the ${format.toUpperCase()} header is damaged or incomplete`);
  checkSize(header.width, header.height);
  // PNG and JPEG, the formats scans come in, are decoded in JavaScript: the native decoders crash the
  // process on some damaged files instead of failing.
  if (format === 'png') return [decodePng(buf)];
  if (format === 'jpg') return [applyOrientation(await decodeJpeg(buf), header.orientation)];
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  let img: Awaited<ReturnType<typeof loadImage>>;
  try {
    img = await loadImage(buf);
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `the ${format.toUpperCase()} image cannot be decoded (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!(img.width > 0 && img.height > 0)) throw new DocError('INVALID_DOCUMENT', `the ${format.toUpperCase()} image cannot be decoded`);
  checkSize(img.width, img.height);
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const data = ctx.getImageData(0, 0, img.width, img.height).data;
  let out: RgbaImage = { width: img.width, height: img.height, data };
  // Skia hands back the stored pixels: turn them as the EXIF orientation says, unless the decoder already did.
  const alreadyTurned = header.orientation >= 5 && img.width === header.height && img.height === header.width && header.width !== header.height;
  if (!alreadyTurned) out = applyOrientation(out, header.orientation);
  return [out];
}

type JpegDecoder = {
  new (): { width: number; height: number; numComponents: number; parse(data: Uint8Array): void; getData(o: { width: number; height: number; forceRGBA: boolean }): Uint8ClampedArray };
};
let jpegDecoder: Promise<JpegDecoder> | null = null;

function loadJpegDecoder(): Promise<JpegDecoder> {
  jpegDecoder ??= import('pdfjs-dist/image_decoders/pdf.image_decoders.mjs' as string).then((m: { JpegImage: JpegDecoder; setVerbosityLevel: (n: number) => void }) => {
    m.setVerbosityLevel(0);
    return m.JpegImage;
  });
  return jpegDecoder;
}

async function decodeJpeg(buf: Buffer): Promise<RgbaImage> {
  const JpegImage = await loadJpegDecoder();
  try {
    const jpeg = new JpegImage();
    jpeg.parse(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
    checkSize(jpeg.width, jpeg.height);
    const data = jpeg.getData({ width: jpeg.width, height: jpeg.height, forceRGBA: true });
    return { width: jpeg.width, height: jpeg.height, data };
  } catch (err) {
    if (err instanceof DocError) throw err;
    throw new DocError('INVALID_DOCUMENT', `the JPEG image cannot be decoded (${err instanceof Error ? err.message : String(err)})`);
  }
}

type UtifIfd = Record<string, unknown> & { width?: number; height?: number };

async function decodeTiff(buf: Buffer): Promise<RgbaImage[]> {
  const UTIF = (await import('utif2')).default as unknown as {
    decode(b: ArrayBuffer | Uint8Array): UtifIfd[];
    decodeImage(b: ArrayBuffer | Uint8Array, ifd: UtifIfd): void;
    toRGBA8(ifd: UtifIfd): Uint8Array;
  };
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  let ifds: UtifIfd[];
  try {
    ifds = UTIF.decode(bytes);
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `the TIFF file is damaged (${err instanceof Error ? err.message : String(err)})`);
  }
  // Pages are the IFDs with an image; reduced-resolution thumbnails (NewSubfileType bit 0) are skipped.
  const pages = ifds.filter((ifd) => tagNumber(ifd, 't256') > 0 && (tagNumber(ifd, 't254') & 1) === 0);
  if (pages.length === 0) throw new DocError('INVALID_DOCUMENT', 'the TIFF file has no pages');
  if (pages.length > MAX_TIFF_PAGES) throw new DocError('INVALID_DOCUMENT', `the TIFF file has ${pages.length} pages; at most ${MAX_TIFF_PAGES} are accepted`);
  pages.forEach((ifd, i) => checkSize(tagNumber(ifd, 't256'), tagNumber(ifd, 't257'), i + 1));
  const out: RgbaImage[] = [];
  for (const [i, ifd] of pages.entries()) {
    let rgba: Uint8Array;
    try {
      UTIF.decodeImage(bytes, ifd);
      rgba = UTIF.toRGBA8(ifd);
    } catch (err) {
      throw new DocError('INVALID_DOCUMENT', `page ${i + 1} of the TIFF file cannot be decoded (${err instanceof Error ? err.message : String(err)})`);
    }
    const width = ifd.width ?? tagNumber(ifd, 't256');
    const height = ifd.height ?? tagNumber(ifd, 't257');
    if (rgba.length < width * height * 4) throw new DocError('INVALID_DOCUMENT', `page ${i + 1} of the TIFF file is truncated`);
    const data = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4);
    out.push(applyOrientation({ width, height, data }, tagNumber(ifd, 't274') || 1));
  }
  return out;
}

function tagNumber(ifd: UtifIfd, tag: string): number {
  const v = ifd[tag];
  if (Array.isArray(v) && typeof v[0] === 'number') return v[0];
  if (typeof v === 'number') return v;
  return 0;
}
