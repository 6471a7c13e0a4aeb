import type { RgbaImage } from '../core/image.js';
import UTIF from 'utif2';

/** PNG or JPEG through Skia (@napi-rs/canvas). Nothing of the source file (EXIF, ICC, text chunks) is carried over. */
export async function encodeCanvasImage(image: RgbaImage, format: 'png' | 'jpg', jpegQuality = 92): Promise<Buffer> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  const imageData = ctx.createImageData(image.width, image.height);
  imageData.data.set(image.data);
  ctx.putImageData(imageData, 0, 0);
  return format === 'png' ? canvas.encode('png') : canvas.encode('jpeg', jpegQuality);
}

/** A 24-bit uncompressed BMP (BITMAPINFOHEADER, bottom-up rows), alpha flattened onto white. */
export function encodeBmp(image: RgbaImage): Buffer {
  const { width, height, data } = image;
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const pixelBytes = rowSize * height;
  const buf = Buffer.alloc(54 + pixelBytes);
  buf.write('BM', 0, 'ascii');
  buf.writeUInt32LE(54 + pixelBytes, 2);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(0, 30);
  buf.writeUInt32LE(pixelBytes, 34);
  buf.writeInt32LE(5669, 38); // 144 dpi in pixels per metre
  buf.writeInt32LE(5669, 42);
  for (let y = 0; y < height; y++) {
    let o = 54 + (height - 1 - y) * rowSize;
    let i = y * width * 4;
    for (let x = 0; x < width; x++) {
      const a = data[i + 3]! / 255;
      buf[o++] = Math.round(data[i + 2]! * a + 255 * (1 - a));
      buf[o++] = Math.round(data[i + 1]! * a + 255 * (1 - a));
      buf[o++] = Math.round(data[i]! * a + 255 * (1 - a));
      i += 4;
    }
  }
  return buf;
}

/**
 * PackBits (TIFF compression 32773), each row on its own as TIFF requires: runs of equal bytes and
 * literal stretches, at most 128 bytes each. Scanned pages are mostly white, so this shrinks them a lot.
 */
function packBits(rgb: Uint8Array, rowBytes: number): Uint8Array {
  const rows = Math.ceil(rgb.length / rowBytes);
  const out = new Uint8Array(rgb.length + rows * (Math.ceil(rowBytes / 128) + 1));
  let w = 0;
  for (let r = 0; r < rows; r++) {
    const end = Math.min(rgb.length, (r + 1) * rowBytes);
    let i = r * rowBytes;
    while (i < end) {
      let run = 1;
      while (i + run < end && run < 128 && rgb[i + run] === rgb[i]) run++;
      if (run >= 3) {
        out[w++] = 257 - run;
        out[w++] = rgb[i]!;
        i += run;
        continue;
      }
      const start = i;
      while (i < end && i - start < 128 && !(i + 2 < end && rgb[i] === rgb[i + 1] && rgb[i] === rgb[i + 2])) i++;
      out[w++] = i - start - 1;
      out.set(rgb.subarray(start, i), w);
      w += i - start;
    }
  }
  return out.slice(0, w);
}

/**
 * A multi-page baseline TIFF (RGB, PackBits, one strip per page) written with utif2's IFD writer.
 * Only the tags needed to read the pixels are written: no source metadata survives.
 */
export function encodeTiff(pages: readonly RgbaImage[]): Buffer {
  const rgbPages = pages.map((p) => {
    const rgb = new Uint8Array(p.width * p.height * 3);
    for (let i = 0, o = 0; i < p.data.length; i += 4) {
      const a = p.data[i + 3]! / 255;
      rgb[o++] = Math.round(p.data[i]! * a + 255 * (1 - a));
      rgb[o++] = Math.round(p.data[i + 1]! * a + 255 * (1 - a));
      rgb[o++] = Math.round(p.data[i + 2]! * a + 255 * (1 - a));
    }
    return packBits(rgb, p.width * 3);
  });
  const ifds = (offsets: number[]): Array<Record<string, unknown>> =>
    pages.map((p, k) => ({
      t256: [p.width],
      t257: [p.height],
      t258: [8, 8, 8],
      t259: [32773],
      t262: [2],
      t273: [offsets[k]!],
      t277: [3],
      t278: [p.height],
      t279: [rgbPages[k]!.length],
      t282: [[72, 1]],
      t283: [[72, 1]],
      t284: [1],
      t296: [2],
    }));
  const encode = UTIF.encode as unknown as (ifds: Array<Record<string, unknown>>) => ArrayBuffer;
  // The IFD block's length does not depend on the offsets' values: measure it, then place the pixels after it.
  const headerLen = encode(ifds(pages.map(() => 0))).byteLength;
  const offsets: number[] = [];
  let at = Math.ceil(headerLen / 4) * 4;
  for (const rgb of rgbPages) {
    offsets.push(at);
    at += rgb.length;
  }
  const header = new Uint8Array(encode(ifds(offsets)));
  const out = Buffer.alloc(at);
  out.set(header, 0);
  rgbPages.forEach((rgb, k) => out.set(rgb, offsets[k]!));
  return out;
}
