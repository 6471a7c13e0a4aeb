import type { RgbaImage } from '../../core/image.js';
import type { Quad } from './text-quad.js';

/**
 * Samples the pixels under a text quad into a model input: the quad's top-left..top-right side becomes the
 * top row, so any rotation or skew of the line is undone here (an affine warp of the rectangle).
 * Output is CHW float32 in BGR order (PaddleOCR's training order), normalised as (v/255 - 0.5) / 0.5,
 * `outW` columns of content written at the left of a `padW`-wide canvas (the rest stays 0 = mid grey).
 */
export function sampleQuad(
  img: RgbaImage,
  q: Quad,
  outH: number,
  outW: number,
  padW: number,
  target: Float32Array,
  offset: number,
  flip180 = false,
): void {
  const [tl, tr, , bl] = q;
  const ux = (tr[0] - tl[0]) / outW;
  const uy = (tr[1] - tl[1]) / outW;
  const vx = (bl[0] - tl[0]) / outH;
  const vy = (bl[1] - tl[1]) / outH;
  // Supersample when the crop is shrunk a lot, so thin strokes are averaged instead of skipped.
  const scale = Math.max(Math.hypot(ux, uy), Math.hypot(vx, vy));
  const n = scale > 1.25 ? 2 : 1;
  const { width: W, height: H } = img;
  const d = img.data;
  const plane = outH * padW;
  for (let oy = 0; oy < outH; oy++) {
    for (let ox = 0; ox < outW; ox++) {
      let b = 0;
      let g = 0;
      let r = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const fu = ox + (sx + 0.5) / n;
          const fv = oy + (sy + 0.5) / n;
          const x = Math.min(W - 1, Math.max(0, tl[0] + fu * ux + fv * vx - 0.5));
          const y = Math.min(H - 1, Math.max(0, tl[1] + fu * uy + fv * vy - 0.5));
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const x1 = Math.min(W - 1, x0 + 1);
          const y1 = Math.min(H - 1, y0 + 1);
          const ax = x - x0;
          const ay = y - y0;
          const i00 = (y0 * W + x0) * 4;
          const i01 = (y0 * W + x1) * 4;
          const i10 = (y1 * W + x0) * 4;
          const i11 = (y1 * W + x1) * 4;
          const w00 = (1 - ax) * (1 - ay);
          const w01 = ax * (1 - ay);
          const w10 = (1 - ax) * ay;
          const w11 = ax * ay;
          r += d[i00]! * w00 + d[i01]! * w01 + d[i10]! * w10 + d[i11]! * w11;
          g += d[i00 + 1]! * w00 + d[i01 + 1]! * w01 + d[i10 + 1]! * w10 + d[i11 + 1]! * w11;
          b += d[i00 + 2]! * w00 + d[i01 + 2]! * w01 + d[i10 + 2]! * w10 + d[i11 + 2]! * w11;
        }
      }
      const k = 1 / (n * n * 127.5);
      const tx = flip180 ? outW - 1 - ox : ox;
      const ty = flip180 ? outH - 1 - oy : oy;
      const o = offset + ty * padW + tx;
      target[o] = b * k - 1;
      target[o + plane] = g * k - 1;
      target[o + 2 * plane] = r * k - 1;
    }
  }
}

/** Width a line crop gets at height `h`, keeping its aspect ratio (at least 1/4 of the height). */
export function cropWidth(q: Quad, h: number, maxW: number): number {
  const w = (Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]) + Math.hypot(q[2][0] - q[3][0], q[2][1] - q[3][1])) / 2;
  const hh = (Math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1]) + Math.hypot(q[2][0] - q[1][0], q[2][1] - q[1][1])) / 2;
  const ratio = hh > 0 ? w / hh : 1;
  return Math.max(Math.ceil(h / 4), Math.min(maxW, Math.ceil(h * ratio)));
}
