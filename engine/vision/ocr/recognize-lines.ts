import type { RgbaImage } from '../../core/image.js';
import { cropWidth, sampleQuad } from './line-crop.js';
import { ocrModels, ort } from './ocr-models.js';
import type { Quad } from './text-quad.js';
import { blankColumns, insertWordSpaces } from './word-gaps.js';

/**
 * PP-OCR line recognition: each quad is warped to height 48, lines of similar width are batched
 * (padded to the widest in the batch), and the CTC output is decoded greedily.
 */

export interface RecognizedLine {
  text: string;
  /** Mean of the winning probabilities of the emitted characters (0 when nothing was read). */
  confidence: number;
  /** For each character of `text`: its position along the line, 0..1 of the crop width. */
  positions: number[];
  /** For each character of `text`: the highest space-class probability between it and the next character. */
  spaceAfter: number[];
}

export interface LineToRead {
  quad: Quad;
  /** Read the crop turned 180 degrees (an upside-down line). */
  flip?: boolean;
}

const REC_H = 48;
/**
 * Narrowest batch canvas. PaddleOCR pads every line to 320; short lines read the same with little padding
 * (checked on corpus pages), and padding is paid for in full by the convolution.
 */
const MIN_W = 64;
const MAX_W = 3200;
const BATCH = 6;
/** Batch width budget (lines x padded width): larger batches of wide crops run slower per pixel on CPU. */
const BATCH_PIXELS = 2560;

export async function recognizeLines(img: RgbaImage, lines: LineToRead[]): Promise<RecognizedLine[]> {
  const { rec, charset } = await ocrModels();
  const widths = lines.map((l) => cropWidth(l.quad, REC_H, MAX_W));
  const order = lines.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  const results: RecognizedLine[] = new Array(lines.length);
  for (let b = 0; b < order.length; ) {
    const idx = [order[b]!];
    let padW = Math.max(MIN_W, widths[order[b]!]!);
    b++;
    while (b < order.length && idx.length < BATCH) {
      const w = Math.max(padW, widths[order[b]!]!);
      if (w * (idx.length + 1) > BATCH_PIXELS) break;
      padW = w;
      idx.push(order[b]!);
      b++;
    }
    const per = 3 * REC_H * padW;
    const data = new Float32Array(per * idx.length);
    idx.forEach((li, k) => sampleQuad(img, lines[li]!.quad, REC_H, widths[li]!, padW, data, k * per, lines[li]!.flip ?? false));
    const input = new ort.Tensor('float32', data, [idx.length, 3, REC_H, padW]);
    const res = await rec.run({ [rec.inputNames[0]!]: input });
    const out = res[rec.outputNames[0]!]!;
    const [, steps, classes] = out.dims as number[];
    const probs = out.data as Float32Array;
    idx.forEach((li, k) => {
      const read = decodeCtc(probs, k * steps! * classes!, steps!, classes!, charset, widths[li]! / padW);
      // Green plane of this crop: enough to tell ink from paper.
      const { blank, inkHeight } = blankColumns(data, k * per + REC_H * padW, REC_H, widths[li]!, padW);
      const spaced = insertWordSpaces(read.text, read.positions, read.spaceAfter, blank, inkHeight);
      results[li] = spaced === read.text ? read : { ...read, text: spaced, positions: [], spaceAfter: [] };
    });
  }
  return results;
}

/** Greedy CTC: best class per step, repeats merged, blanks dropped. */
export function decodeCtc(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  charset: string[],
  contentShare: number,
): RecognizedLine {
  let text = '';
  const positions: number[] = [];
  let sum = 0;
  let n = 0;
  let prev = -1;
  let runStart = 0;
  const spaceAfter: number[] = [];
  const space = charset.length - 1;
  let gapSpace = 0;
  const place = (end: number) => Math.min(1, (runStart + end) / 2 / steps / contentShare);
  for (let t = 0; t < steps; t++) {
    const base = offset + t * classes;
    let best = 0;
    let bestP = probs[base]!;
    for (let c = 1; c < classes; c++) {
      const p = probs[base + c]!;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== prev) {
      // A character's place is the middle of the steps that voted for it.
      if (prev > 0) positions.push(place(t));
      if (best !== 0) {
        if (spaceAfter.length) spaceAfter[spaceAfter.length - 1] = gapSpace;
        spaceAfter.push(0);
        gapSpace = 0;
        text += charset[best] ?? '';
        sum += bestP;
        n++;
      }
      runStart = t;
    }
    if (best === 0 && probs[base + space]! > gapSpace) gapSpace = probs[base + space]!;
    prev = best;
  }
  if (prev > 0) positions.push(place(steps));
  return { text, confidence: n ? sum / n : 0, positions, spaceAfter };
}
