import type { RgbaImage } from '../../core/image.js';
import { cropWidth, sampleQuad } from './line-crop.js';
import { ocrModels, ort } from './ocr-models.js';
import { timeStage, timeStageAsync } from './ocr-stage-clock.js';
import type { Quad } from './text-quad.js';

/** PP-OCR's 0/180 line classifier: the probability that each line's crop is upside down. */

const CLS_H = 48;
const CLS_W = 192;
const BATCH = 16;

export async function upsideDownProbability(img: RgbaImage, quads: Quad[]): Promise<number[]> {
  const { cls } = await ocrModels();
  const out: number[] = [];
  const per = 3 * CLS_H * CLS_W;
  for (let b = 0; b < quads.length; b += BATCH) {
    const batch = quads.slice(b, b + BATCH);
    const data = new Float32Array(per * batch.length);
    timeStage('cls.crop', () => batch.forEach((q, k) => sampleQuad(img, q, CLS_H, cropWidth(q, CLS_H, CLS_W), CLS_W, data, k * per)));
    const res = await timeStageAsync('cls.run', () => cls.run({ [cls.inputNames[0]!]: new ort.Tensor('float32', data, [batch.length, 3, CLS_H, CLS_W]) }));
    const probs = res[cls.outputNames[0]!]!.data as Float32Array;
    for (let k = 0; k < batch.length; k++) out.push(probs[k * 2 + 1]!);
  }
  return out;
}
