import type { RgbaImage } from '../../core/image.js';
import { ocrModels, ort } from './ocr-models.js';
import { timeStage, timeStageAsync } from './ocr-stage-clock.js';
import { growRect, minAreaRect, normalizeRect, quadToRect, rectCorners, type Point, type Quad, type RotatedRect } from './text-quad.js';

/**
 * DB text detection: the page is scaled so its longer side is at most `maxSide` (multiples of 32),
 * the model gives a per-pixel text probability, and each connected blob above the threshold becomes
 * a rotated rectangle grown back by the shrink the model was trained with ("unclip").
 */

export interface DetectOptions {
  maxSide?: number;
  /** A small page is enlarged until its shorter side reaches this (never past maxSide, nor more than MAX_UPSCALE). */
  minSide?: number;
  /** Pixel threshold on the probability map. */
  threshold?: number;
  /** Minimum mean probability inside a box. */
  boxThreshold?: number;
  unclipRatio?: number;
}

export interface DetectedBox {
  /** Corners in the input image's pixels, as the rectangle's own axes give them (see rectCorners). */
  quad: Quad;
  rect: RotatedRect;
  score: number;
}

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/** Separable triangle-filter resample (antialiased when shrinking) straight into a normalised BGR CHW tensor. */
export function resizeToTensor(img: RgbaImage, ow: number, oh: number): Float32Array {
  const { width: iw, height: ih, data } = img;
  // Filter taps per output sample, flattened: taps[o * span + k] weights input starts[o] + k.
  const weights = (inSize: number, outSize: number) => {
    const scale = inSize / outSize;
    const support = Math.max(1, scale);
    const span = Math.ceil(support) * 2 + 2;
    const starts = new Int32Array(outSize);
    const counts = new Int32Array(outSize);
    const taps = new Float32Array(outSize * span);
    for (let o = 0; o < outSize; o++) {
      const center = (o + 0.5) * scale;
      const lo = Math.max(0, Math.floor(center - support));
      const hi = Math.min(inSize - 1, Math.ceil(center + support), lo + span - 1);
      let sum = 0;
      for (let i = lo; i <= hi; i++) {
        const w = Math.max(0, 1 - Math.abs(i + 0.5 - center) / support);
        taps[o * span + i - lo] = w;
        sum += w;
      }
      if (sum > 0) for (let i = lo; i <= hi; i++) taps[o * span + i - lo]! /= sum;
      starts[o] = lo;
      counts[o] = hi - lo + 1;
    }
    return { starts, counts, taps, span };
  };
  const hx = weights(iw, ow);
  const vy = weights(ih, oh);
  // Vertical pass first, one output row at a time (the taps' input rows blended into one RGB row), then the
  // horizontal pass straight into the tensor: no whole-page intermediate (36 MB for a 8 MP scan, measured ~0.3 s of
  // CPU and garbage collection per page), same filter.
  const plane = ow * oh;
  const out = new Float32Array(plane * 3);
  const row = new Float32Array(iw * 3);
  const rowStart = new Int32Array(vy.span);
  const bytes = data.byteOffset % 4 === 0 ? data : new Uint8Array(data);
  const pixels = new Uint32Array(bytes.buffer, bytes.byteOffset, iw * ih);
  // BGR planes, ImageNet statistics applied in that order as PaddleOCR does.
  const k0 = 1 / (255 * STD[0]!);
  const k1 = 1 / (255 * STD[1]!);
  const k2 = 1 / (255 * STD[2]!);
  const m0 = MEAN[0]! / STD[0]!;
  const m1 = MEAN[1]! / STD[1]!;
  const m2 = MEAN[2]! / STD[2]!;
  for (let y = 0; y < oh; y++) {
    const s = vy.starts[y]!;
    const n = vy.counts[y]!;
    const t0 = y * vy.span;
    for (let k = 0; k < n; k++) rowStart[k] = (s + k) * iw;
    for (let x = 0, j = 0; x < iw; x++, j += 3) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < n; k++) {
        // One 32-bit load per pixel (RGBA little-endian) instead of three byte loads.
        const v = pixels[rowStart[k]! + x]!;
        const w = vy.taps[t0 + k]!;
        r += (v & 0xff) * w;
        g += ((v >>> 8) & 0xff) * w;
        b += ((v >>> 16) & 0xff) * w;
      }
      row[j] = r;
      row[j + 1] = g;
      row[j + 2] = b;
    }
    for (let x = 0; x < ow; x++) {
      const sx = hx.starts[x]!;
      const nx = hx.counts[x]!;
      const tx = x * hx.span;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < nx; k++) {
        const i = (sx + k) * 3;
        const w = hx.taps[tx + k]!;
        r += row[i]! * w;
        g += row[i + 1]! * w;
        b += row[i + 2]! * w;
      }
      const o = y * ow + x;
      out[o] = b * k0 - m0;
      out[o + plane] = g * k1 - m1;
      out[o + 2 * plane] = r * k2 - m2;
    }
  }
  return out;
}

/** Largest enlargement minSide may ask for: beyond it, text a small image holds is usually big already. */
const MAX_UPSCALE = 2;

/**
 * Size the detector sees: longer side at most maxSide; a page whose shorter side is under minSide is enlarged
 * towards it (at most MAX_UPSCALE, longer side still at most maxSide); both sides multiples of 32.
 */
export function detectionSize(width: number, height: number, maxSide: number, minSide = 0): { w: number; h: number } {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  let ratio = long > maxSide ? maxSide / long : 1;
  if (short * ratio < minSide) ratio = Math.max(ratio, Math.min(minSide / short, maxSide / long, MAX_UPSCALE));
  return {
    w: Math.max(32, Math.round((width * ratio) / 32) * 32),
    h: Math.max(32, Math.round((height * ratio) / 32) * 32),
  };
}

/** Mean probability inside a rectangle (pixel centres tested against its axes). */
function rectScore(prob: Float32Array, pw: number, ph: number, r: RotatedRect): number {
  const corners = rectCorners(r);
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(pw - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(ph - 1, Math.ceil(Math.max(...ys)));
  const ux = Math.cos(r.angle);
  const uy = Math.sin(r.angle);
  const hw = r.w / 2 + 0.5;
  const hh = r.h / 2 + 0.5;
  let sum = 0;
  let n = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x - r.cx;
      const dy = y - r.cy;
      if (Math.abs(dx * ux + dy * uy) <= hw && Math.abs(-dx * uy + dy * ux) <= hh) {
        sum += prob[y * pw + x]!;
        n++;
      }
    }
  }
  return n ? sum / n : 0;
}

/** Connected components (8-neighbour) of prob > threshold, each as its per-row extreme points. */
function textBlobs(prob: Float32Array, pw: number, ph: number, threshold: number): Point[][] {
  const labels = new Int32Array(pw * ph);
  const stack = new Int32Array(pw * ph);
  const blobs: Point[][] = [];
  let next = 0;
  for (let start = 0; start < pw * ph; start++) {
    if (labels[start] !== 0 || prob[start]! <= threshold) continue;
    next++;
    labels[start] = next;
    let top = 0;
    stack[top++] = start;
    const rowMin = new Map<number, number>();
    const rowMax = new Map<number, number>();
    while (top > 0) {
      const i = stack[--top]!;
      const x = i % pw;
      const y = (i - x) / pw;
      const lo = rowMin.get(y);
      if (lo === undefined || x < lo) rowMin.set(y, x);
      const hi = rowMax.get(y);
      if (hi === undefined || x > hi) rowMax.set(y, x);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= ph) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= pw) continue;
          const j = ny * pw + nx;
          if (labels[j] === 0 && prob[j]! > threshold) {
            labels[j] = next;
            stack[top++] = j;
          }
        }
      }
    }
    const pts: Point[] = [];
    for (const [y, lo] of rowMin) {
      pts.push([lo, y]);
      const hi = rowMax.get(y)!;
      if (hi !== lo) pts.push([hi, y]);
    }
    blobs.push(pts);
  }
  return blobs;
}

export async function detectTextBoxes(img: RgbaImage, opts: DetectOptions = {}): Promise<DetectedBox[]> {
  const maxSide = opts.maxSide ?? 960;
  const threshold = opts.threshold ?? 0.3;
  const boxThreshold = opts.boxThreshold ?? 0.6;
  const unclipRatio = opts.unclipRatio ?? 1.5;
  const { det } = await ocrModels();
  const { w: dw, h: dh } = detectionSize(img.width, img.height, maxSide, opts.minSide ?? 0);
  const input = new ort.Tensor('float32', timeStage('det.prep', () => resizeToTensor(img, dw, dh)), [1, 3, dh, dw]);
  const result = await timeStageAsync('det.run', () => det.run({ [det.inputNames[0]!]: input }));
  const out = result[det.outputNames[0]!]!;
  const [, , ph, pw] = out.dims as number[];
  const prob = out.data as Float32Array;
  return timeStage('det.post', () => boxesFromMap(prob, pw!, ph!, img.width / pw!, img.height / ph!, threshold, boxThreshold, unclipRatio));
}

function boxesFromMap(
  prob: Float32Array,
  pw: number,
  ph: number,
  sx: number,
  sy: number,
  threshold: number,
  boxThreshold: number,
  unclipRatio: number,
): DetectedBox[] {
  const boxes: DetectedBox[] = [];
  for (const pts of textBlobs(prob, pw, ph, threshold)) {
    if (pts.length < 2) continue;
    const rect = minAreaRect(pts);
    if (Math.min(rect.w, rect.h) < 3) continue;
    const score = rectScore(prob, pw, ph, rect);
    if (score < boxThreshold) continue;
    const area = rect.w * rect.h;
    const perimeter = 2 * (rect.w + rect.h);
    const grown = growRect(rect, (area * unclipRatio) / perimeter);
    if (Math.min(grown.w, grown.h) < 5) continue;
    // Back to image pixels; the two axes may scale differently, so map the corners, not the rect.
    const q = rectCorners(grown).map(([x, y]) => [(x + 0.5) * sx, (y + 0.5) * sy]) as Quad;
    boxes.push({ quad: q, rect: normalizeRect(quadToRect(q)), score });
  }
  return boxes;
}
