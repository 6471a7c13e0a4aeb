import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { cpuSessionOptions } from '../cpu-session-options.js';
import { foldAffineBlocks } from './fold-affine-blocks.js';
import { locateModel } from '../../../models/load-model.js';
import type { ModelId } from '../../../models/manifest.js';

/**
 * The three PP-OCR sessions and the character list, created on first use and kept for the life of the process.
 * One intra-op thread by default: the server runs two OCR worker processes on two cores. DOCAI_OCR_THREADS=N gives a
 * process that is the only OCR user N intra-op threads per session; their pool does not spin (a spinning pool doubled
 * the CPU per page under load, and an idle thread must give its core back to the other worker).
 * Several sessions do not stand in for threads: onnxruntime-node 1.30 runs InferenceSession.run synchronously on the
 * calling thread (inside a setImmediate), so two runs "in flight" on two sessions still take turns.
 */

/** Intra-op threads from DOCAI_OCR_THREADS (1..cores), else 1. */
export function ocrThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number.parseInt(env.DOCAI_OCR_THREADS ?? '', 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, Math.max(1, availableParallelism()));
}

export interface OcrModels {
  det: ort.InferenceSession;
  rec: ort.InferenceSession;
  cls: ort.InferenceSession;
  /** index -> character for the recognition output; index 0 is the CTC blank (''). */
  charset: string[];
}

let loading: Promise<OcrModels> | null = null;

/**
 * The model file with its per-convolution affine and hard-swish chains folded (fold-affine-blocks.ts: same function,
 * outputs equal to 2e-6). CPU per run on one thread, shipped -> folded: recogniser 82-84 -> 58 ms on a 48x1000 line,
 * detector 194-238 -> 140 ms on 960x736, classifier 17 -> 10.5 ms on 16 lines. The rewrite costs about 0.4 s of CPU
 * once per process for the three files. Weights keep their float32 precision (no quantisation).
 */
export async function optimizedModelBytes(path: string): Promise<Uint8Array> {
  const bytes = await readFile(path);
  try {
    return foldAffineBlocks(bytes).model;
  } catch {
    // A graph the rewrite cannot read runs as shipped: same results, only slower.
    return bytes;
  }
}

async function session(model: Uint8Array, threads: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model, cpuSessionOptions(threads));
}

async function loadCharset(): Promise<string[]> {
  const text = await readFile(await locateModel('ocr-keys'), 'utf8');
  const keys = text.split(/\r?\n/);
  if (keys[keys.length - 1] === '') keys.pop();
  // PaddleOCR's CTC label layout: blank first, the key list, then a space (use_space_char).
  return ['', ...keys, ' '];
}

async function loadAll(): Promise<OcrModels> {
  const threads = ocrThreads();
  const bytes = (id: ModelId) => locateModel(id).then(optimizedModelBytes);
  const [detModel, recModel, clsModel, charset] = await Promise.all([bytes('ocr-det'), bytes('ocr-rec'), bytes('ocr-cls'), loadCharset()]);
  const [det, rec, cls] = await Promise.all([session(detModel, threads), session(recModel, threads), session(clsModel, threads)]);
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
