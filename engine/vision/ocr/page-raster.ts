import type { RgbaImage } from '../../core/image.js';

/** Raster operations OCR needs on whole pages: flatten transparency, quarter turns. */

/** Composites transparent pixels over white (a transparent PNG's hidden colour is often black). */
export function flattenAlpha(img: RgbaImage): RgbaImage {
  const d = img.data;
  let opaque = true;
  for (let i = 3; i < d.length; i += 4) {
    if (d[i] !== 255) {
      opaque = false;
      break;
    }
  }
  if (opaque) return img;
  const out = new Uint8ClampedArray(d.length);
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3]! / 255;
    out[i] = d[i]! * a + 255 * (1 - a);
    out[i + 1] = d[i + 1]! * a + 255 * (1 - a);
    out[i + 2] = d[i + 2]! * a + 255 * (1 - a);
    out[i + 3] = 255;
  }
  return { width: img.width, height: img.height, data: out };
}

/** The image turned clockwise by `deg`. */
export function rotateImage(img: RgbaImage, deg: 0 | 90 | 180 | 270): RgbaImage {
  if (deg === 0) return img;
  const { width: w, height: h } = img;
  const bytes = img.data.byteOffset % 4 === 0 ? img.data : new Uint8Array(img.data);
  const src = new Uint32Array(bytes.buffer, bytes.byteOffset, w * h);
  const ow = deg === 180 ? w : h;
  const oh = deg === 180 ? h : w;
  const out = new Uint8ClampedArray(ow * oh * 4);
  const dst = new Uint32Array(out.buffer);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      let nx: number;
      let ny: number;
      if (deg === 90) {
        nx = h - 1 - y;
        ny = x;
      } else if (deg === 180) {
        nx = w - 1 - x;
        ny = h - 1 - y;
      } else {
        nx = y;
        ny = w - 1 - x;
      }
      dst[ny * ow + nx] = src[row + x]!;
    }
  }
  return { width: ow, height: oh, data: out };
}
