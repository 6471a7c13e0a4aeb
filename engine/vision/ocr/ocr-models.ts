import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-node';
import { locateModel } from '../../../models/load-model.js';
import type { ModelId } from '../../../models/manifest.js';

/**
 * The three PP-OCR sessions and the character list, created on first use and kept for the life of the process.
 * One intra-op thread: with 2 cores and parallel workers, more threads only contend.
 */

export interface OcrModels {
  det: ort.InferenceSession;
  rec: ort.InferenceSession;
  cls: ort.InferenceSession;
  /** index -> character for the recognition output; index 0 is the CTC blank (''). */
  charset: string[];
}

let loading: Promise<OcrModels> | null = null;

async function session(id: ModelId): Promise<ort.InferenceSession> {
  const path = await locateModel(id);
  return ort.InferenceSession.create(path, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    // Input shapes change with every page and line batch: an arena keeps the largest ever seen
    // (measured: peak RSS 640 -> 500 MB on a 16 MP scan, same speed).
    enableCpuMemArena: false,
    enableMemPattern: false,
  });
}

async function loadCharset(): Promise<string[]> {
  const text = await readFile(await locateModel('ocr-keys'), 'utf8');
  const keys = text.split(/\r?\n/);
  if (keys[keys.length - 1] === '') keys.pop();
  // PaddleOCR's CTC label layout: blank first, the key list, then a space (use_space_char).
  return ['', ...keys, ' '];
}

async function loadAll(): Promise<OcrModels> {
  const [det, rec, cls, charset] = await Promise.all([session('ocr-det'), session('ocr-rec'), session('ocr-cls'), loadCharset()]);
  return { det, rec, cls, charset };
}

export function ocrModels(): Promise<OcrModels> {
  if (!loading) {
    loading = loadAll();
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export { ort };
