import type { RgbaImage } from '../../core/image.js';

/**
 * A page's ink at a reduced scale: one byte per cell of `scale` x `scale` page pixels. Bit 1 (DARK) is set when
 * a pixel of the cell is clearly darker than the paper (text, ruling lines, dark graphics); bit 2 (MARK) when
 * one is noticeably darker (light-gray rules, pale chart fills, photos) — MARK includes every DARK pixel.
 */
export interface InkMask {
  width: number;
  height: number;
  /** Page pixels per mask cell along each axis. */
  scale: number;
  data: Uint8Array;
}

export const DARK = 1;
export const MARK = 2;

/** Gray levels of the paper and of the darkest ink, read from a sample of the page's pixels. */
export function paperAndInk(image: RgbaImage): { paper: number; ink: number } {
  const hist = new Uint32Array(256);
  const { width, height, data } = image;
  const step = Math.max(1, Math.floor(Math.sqrt((width * height) / 400_000)));
  let n = 0;
  for (let y = 0; y < height; y += step) {
    let i = y * width * 4;
    for (let x = 0; x < width; x += step, i += 4 * step) {
      hist[(data[i]! * 77 + data[i + 1]! * 150 + data[i + 2]! * 29) >> 8]!++;
      n++;
    }
  }
  // Paper: the most common level among the lighter half (smoothed over 5 levels).
  let paper = 255;
  let best = -1;
  for (let g = 96; g < 256; g++) {
    let s = 0;
    for (let k = Math.max(0, g - 2); k <= Math.min(255, g + 2); k++) s += hist[k]!;
    if (s > best) [best, paper] = [s, g];
  }
  // Ink: the level below which 0.5% of the pixels lie (the dark end of text strokes).
  let acc = 0;
  let ink = 0;
  for (let g = 0; g < 256; g++) {
    acc += hist[g]!;
    if (acc >= n * 0.005) {
      ink = g;
      break;
    }
  }
  return { paper, ink: Math.min(ink, paper - 40) };
}

/** The ink mask of a page at `scale` page pixels per cell (a cell holds ink when any of its pixels does). */
export function inkMask(image: RgbaImage, scale: number): InkMask {
  const { paper, ink } = paperAndInk(image);
  const contrast = Math.max(40, paper - ink);
  const darkBelow = Math.round(paper - Math.max(30, 0.38 * contrast));
  const markBelow = Math.round(paper - Math.max(22, 0.16 * contrast));
  // Gray level -> mask bits, so the pixel loop does one lookup.
  const bits = new Uint8Array(256);
  for (let g = 0; g < 256; g++) bits[g] = (g < darkBelow ? DARK : 0) | (g < markBelow ? MARK : 0);
  const { width, height } = image;
  const mw = Math.ceil(width / scale);
  const mh = Math.ceil(height / scale);
  const mask = new Uint8Array(mw * mh);
  // One 32-bit load per pixel (RGBA bytes, little-endian: red in the low byte).
  const bytes = image.data.byteOffset % 4 === 0 ? image.data : new Uint8Array(image.data);
  const px = new Uint32Array(bytes.buffer, bytes.byteOffset, width * height);
  for (let y = 0; y < height; y++) {
    const row = ((y / scale) | 0) * mw;
    const src = y * width;
    for (let mx = 0, x = 0; mx < mw; mx++) {
      let b = 0;
      const end = Math.min(width, x + scale);
      for (; x < end; x++) {
        const p = px[src + x]!;
        b |= bits[((p & 255) * 77 + ((p >>> 8) & 255) * 150 + ((p >>> 16) & 255) * 29) >> 8]!;
      }
      if (b !== 0) mask[row + mx]! |= b;
    }
  }
  return { width: mw, height: mh, scale, data: mask };
}
