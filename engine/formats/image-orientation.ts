import type { RgbaImage } from '../core/image.js';

/**
 * Apply an EXIF/TIFF orientation (1..8) so that the pixels come out upright.
 * 1 normal, 2 mirrored, 3 turned 180, 4 flipped, 5 transposed, 6 needs 90 clockwise, 7 transversed, 8 needs 90 counter-clockwise.
 */
export function applyOrientation(img: RgbaImage, orientation: number): RgbaImage {
  if (orientation <= 1 || orientation > 8) return img;
  const { width: w, height: h, data } = img;
  const swap = orientation >= 5;
  const ow = swap ? h : w;
  const oh = swap ? w : h;
  const out = new Uint8ClampedArray(ow * oh * 4);
  const src = new Uint32Array(data.buffer, data.byteOffset, w * h);
  const dst = new Uint32Array(out.buffer);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let nx: number;
      let ny: number;
      switch (orientation) {
        case 2: nx = w - 1 - x; ny = y; break;
        case 3: nx = w - 1 - x; ny = h - 1 - y; break;
        case 4: nx = x; ny = h - 1 - y; break;
        case 5: nx = y; ny = x; break;
        case 6: nx = h - 1 - y; ny = x; break;
        case 7: nx = h - 1 - y; ny = w - 1 - x; break;
        default: nx = y; ny = w - 1 - x; break; // 8
      }
      dst[ny * ow + nx] = src[y * w + x]!;
    }
  }
  return { width: ow, height: oh, data: out };
}
