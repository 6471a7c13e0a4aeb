import type { DocumentFormat } from '../core/page.js';

/** Pixel sizes an image file declares, read from its header without decoding anything. */
export interface ImageHeader {
  width: number;
  height: number;
  /** EXIF orientation (1..8) for JPEG; 1 when absent. */
  orientation: number;
}

/** Raised to 100 megapixels per page: larger rasters are refused before any pixel is decoded. */
export const MAX_IMAGE_PIXELS = 100_000_000;

export function readImageHeader(buf: Buffer, format: DocumentFormat): ImageHeader | null {
  switch (format) {
    case 'png':
      // IHDR is the first chunk: width and height at bytes 16 and 20.
      if (buf.length < 24 || buf.toString('latin1', 12, 16) !== 'IHDR') return null;
      return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20), orientation: 1 };
    case 'jpg':
      return readJpegHeader(buf);
    case 'bmp': {
      if (buf.length < 26) return null;
      const dibSize = buf.readUInt32LE(14);
      if (dibSize === 12) return { width: buf.readUInt16LE(18), height: buf.readUInt16LE(20), orientation: 1 };
      return { width: Math.abs(buf.readInt32LE(18)), height: Math.abs(buf.readInt32LE(22)), orientation: 1 };
    }
    case 'gif':
      if (buf.length < 10) return null;
      return { width: buf.readUInt16LE(6), height: buf.readUInt16LE(8), orientation: 1 };
    case 'webp':
      return readWebpHeader(buf);
    default:
      return null;
  }
}

function readJpegHeader(buf: Buffer): ImageHeader | null {
  let orientation = 1;
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = buf[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = buf.readUInt16BE(i + 2);
    if (marker === 0xe1 && buf.toString('latin1', i + 4, i + 8) === 'Exif') {
      orientation = readExifOrientation(buf.subarray(i + 10, i + 2 + len)) ?? 1;
    }
    // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry the size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > buf.length) return null;
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7), orientation };
    }
    if (marker === 0xda || marker === 0xd9) return null;
    i += 2 + len;
  }
  return null;
}

/** EXIF orientation tag (0x0112) from a TIFF-structured EXIF block. */
export function readExifOrientation(tiff: Buffer): number | null {
  if (tiff.length < 8) return null;
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let k = 0; k < count; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > tiff.length) return null;
    if (u16(e) === 0x0112) {
      const v = u16(e + 8);
      return v >= 1 && v <= 8 ? v : null;
    }
  }
  return null;
}

function readWebpHeader(buf: Buffer): ImageHeader | null {
  if (buf.length < 30) return null;
  const chunk = buf.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3), orientation: 1 };
  if (chunk === 'VP8L') {
    const b = buf.readUInt32LE(21);
    return { width: 1 + (b & 0x3fff), height: 1 + ((b >> 14) & 0x3fff), orientation: 1 };
  }
  if (chunk === 'VP8 ') return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff, orientation: 1 };
  return null;
}
