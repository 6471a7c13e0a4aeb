import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-node';
import { foldAffineBlocks } from '../../../../engine/vision/ocr/fold-affine-blocks.js';
import { readFields, readNode, writeFields } from '../../../../engine/vision/ocr/onnx-protobuf.js';
import { locateModel } from '../../../../models/load-model.js';

const OPTS: ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };

/** Deterministic input in -1..1 (a linear congruential sequence). */
function input(shape: number[]): ort.Tensor {
  const n = shape.reduce((a, b) => a * b, 1);
  let seed = 7;
  const data = new Float32Array(n).map(() => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648) * 2 - 1;
  });
  return new ort.Tensor('float32', data, shape);
}

async function outputs(model: Uint8Array, shape: number[]): Promise<Float32Array> {
  const s = await ort.InferenceSession.create(model, OPTS);
  const res = await s.run({ [s.inputNames[0]!]: input(shape) });
  const out = res[s.outputNames[0]!]!.data as Float32Array;
  await s.release();
  return out;
}

function opCounts(model: Uint8Array): Record<string, number> {
  const graph = readFields(readFields(model).find((f) => f.no === 7)!.bytes!);
  const counts: Record<string, number> = {};
  for (const f of graph) if (f.no === 1) counts[readNode(f.bytes!).opType] = (counts[readNode(f.bytes!).opType] ?? 0) + 1;
  return counts;
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

describe('foldAffineBlocks', () => {
  it('re-encodes an untouched protobuf byte for byte', async () => {
    const buf = new Uint8Array(readFileSync(await locateModel('ocr-cls')));
    expect(Buffer.from(writeFields(readFields(buf))).equals(Buffer.from(buf))).toBe(true);
  });

  it('folds the recogniser to the same output with far fewer element-wise ops', async () => {
    const buf = new Uint8Array(readFileSync(await locateModel('ocr-rec')));
    const { model, report } = foldAffineBlocks(buf);
    // PP-LCNetV3 in PP-OCRv4 rec: 28 convolutions with an affine + hard-swish + affine behind them.
    expect(report.convAffine).toBe(28);
    expect(report.hardSwish).toBe(28);
    expect(report.affineIntoNext).toBeGreaterThanOrEqual(20);
    const before = opCounts(buf);
    const after = opCounts(model);
    expect(after.Clip ?? 0).toBe((before.Clip ?? 0) - 28);
    // Shifts in front of padded convolutions become 1x1 depthwise convolutions (kept in onnxruntime's NCHWc layout).
    const shiftConvs = after.Conv! - before.Conv!;
    expect(shiftConvs).toBeGreaterThan(0);
    expect(shiftConvs).toBeLessThanOrEqual(report.affineIntoNext);
    expect((after.Mul ?? 0) + (after.Add ?? 0)).toBeLessThan(((before.Mul ?? 0) + (before.Add ?? 0)) / 2);
    const shape = [1, 3, 48, 160];
    const a = await outputs(buf, shape);
    const b = await outputs(model, shape);
    expect(b.length).toBe(a.length);
    // Softmax outputs: equal up to float rounding.
    expect(maxDiff(a, b)).toBeLessThan(1e-4);
  });

  it('folds the detector and the classifier to the same outputs', async () => {
    for (const [id, shape] of [
      ['ocr-det', [1, 3, 96, 128]],
      ['ocr-cls', [2, 3, 48, 192]],
    ] as const) {
      const buf = new Uint8Array(readFileSync(await locateModel(id)));
      const { model, report } = foldAffineBlocks(buf);
      expect(report.hardSwish, id).toBeGreaterThan(10);
      expect(report.nodesAfter, id).toBeLessThan(report.nodesBefore);
      expect(maxDiff(await outputs(buf, [...shape]), await outputs(model, [...shape])), id).toBeLessThan(1e-4);
    }
  });
});
