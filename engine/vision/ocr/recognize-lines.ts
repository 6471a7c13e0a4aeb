import type { RgbaImage } from '../../core/image.js';
import { cropWidth, sampleQuad } from './line-crop.js';
import { ocrModels, ort } from './ocr-models.js';
import { timeStage, timeStageAsync } from './ocr-stage-clock.js';
import type { Quad } from './text-quad.js';
import { blankColumns, insertWordSpaces } from './word-gaps.js';

/*
 * Int8 recogniser, tried and rejected (onnxruntime-node 1.30, 2-core EPYC with AVX2, no VNNI; CPU seconds, 1 thread).
 * Static QDQ built from the folded fp32 model: per-channel symmetric int8 weights (-63..63: AVX2's vpmaddubsw
 * cannot saturate), uint8 activations with min/max scales from rendered line crops, fused by onnxruntime into
 * QLinearConv / MatMulIntegerToFloat (bench/ocr-int8-trial.mjs rebuilds it and times it). Per 48x1000 line, run CPU:
 * fp32 60 ms; every conv int8 62; all 1x1 convs 54; 1x1 convs with >= 240 input channels + the SVTR/CTC matmuls 49-51.
 * Depthwise convs are slower in int8, and each int8 conv costs a Q, a DQ, an unfused hard-swish (HardSigmoid + Mul)
 * and NCHWc reorders that the fp32 NCHWc convolution fuses away; that overhead eats half of the GEMM gain.
 * Best variant on bench/ocr-speed.mjs --limit 12 --profile, rec.run per page, runs back to back: licences
 * 1075 -> 874 ms (-19%), dense pages 4326 -> 3465 ms (-20%) (another pair: -22%); accuracy held (ocr-accuracy zh/en edit
 * 0.324/0.340, recall 0.895/0.965; extract-corpus licence 58/59, emr 54/54). Below the 25% asked for: fp32 stays.
 * Dynamic quantisation (DynamicQuantizeLinear + ConvInteger) on the same convs: -8% (1x1 >= 240) or -1% (all 1x1).
 * Detector, same recipe on 960x736: no gain (143 ms fp32 vs 136-200 ms). Worth retrying on a CPU with VNNI.
 */

/**
 * PP-OCR line recognition: each quad is warped to height 48 and run through the model on its own, at its own
 * width (no padding beyond MIN_W), and the CTC output is decoded greedily.
 * Batching does not pay on CPU: measured on onnxruntime 1.30, one thread, CPU per 1000 columns was ~86-100 ms
 * for single lines of 96..3200 px but 97-172 ms in batches of 2-8 (plus the padding to the batch's widest line);
 * on corpus pages recognition CPU fell 15-20% when lines went one at a time.
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
 * Narrowest input. PaddleOCR pads every line to 320; short lines read the same with little padding
 * (checked on corpus pages), and padding is paid for in full by the convolution.
 */
const MIN_W = 64;
const MAX_W = 3200;

export async function recognizeLines(img: RgbaImage, lines: LineToRead[]): Promise<RecognizedLine[]> {
  if (lines.length === 0) return [];
  const { rec, charset } = await ocrModels();
  const widths = lines.map((l) => cropWidth(l.quad, REC_H, MAX_W));
  // One buffer for the page, sized for its widest line; each line uses (and clears) its own prefix.
  const buffer = new Float32Array(3 * REC_H * Math.max(MIN_W, ...widths));
  const results: RecognizedLine[] = new Array(lines.length);
  for (let li = 0; li < lines.length; li++) results[li] = await readLine(rec, charset, img, lines[li]!, widths[li]!, buffer);
  return results;
}

async function readLine(
  rec: ort.InferenceSession,
  charset: string[],
  img: RgbaImage,
  line: LineToRead,
  width: number,
  buffer: Float32Array,
): Promise<RecognizedLine> {
  const padW = Math.max(MIN_W, width);
  const data = buffer.subarray(0, 3 * REC_H * padW);
  if (padW > width) data.fill(0);
  timeStage('rec.crop', () => sampleQuad(img, line.quad, REC_H, width, padW, data, 0, line.flip ?? false));
  const input = new ort.Tensor('float32', data, [1, 3, REC_H, padW]);
  const res = await timeStageAsync('rec.run', () => rec.run({ [rec.inputNames[0]!]: input }));
  return timeStage('rec.decode', () => {
    const out = res[rec.outputNames[0]!]!;
    const [, steps, classes] = out.dims as number[];
    const read = decodeCtc(out.data as Float32Array, 0, steps!, classes!, charset, width / padW);
    // Green plane of this crop: enough to tell ink from paper.
    const { blank, inkHeight } = blankColumns(data, REC_H * padW, REC_H, width, padW);
    const spaced = insertWordSpaces(read.text, read.positions, read.spaceAfter, blank, inkHeight);
    return spaced === read.text ? read : { ...read, text: spaced, positions: [], spaceAfter: [] };
  });
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
    // Probabilities sum to 1: a class above one half is the winner, so the scan stops there (most steps are a
    // blank above one half and need no scan at all).
    if (bestP <= 0.5) {
      for (let c = 1; c < classes; c++) {
        const p = probs[base + c]!;
        if (p > bestP) {
          bestP = p;
          best = c;
          if (p > 0.5) break;
        }
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
