import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { foldAffineBlocks } from './fold-affine-blocks.js';
import { locateModel } from '../../../models/load-model.js';
import type { ModelId } from '../../../models/manifest.js';

/**
 * The PP-OCR sessions and the character list, created on first use and kept for the life of the process.
 * One OCR thread by default: the server runs two OCR worker processes on two cores. DOCAI_OCR_THREADS=N gives a
 * process that is the only OCR user N threads: the detector (one large run per page) gets N intra-op threads, and the
 * recogniser gets N sessions of one thread each that read different lines at the same time. Measured (rec, 16 lines
 * of 48x600, one thread per session): two sessions in flight used 582-589 ms CPU where one session with two intra-op
 * threads used 659-708 ms for the same lines (intra-op threads synchronise per operator on these small tensors); two
 * runs in flight on ONE session are not run in parallel by onnxruntime-node. Intra-op pools never spin: a spinning
 * pool doubled the CPU per page under load, and an idle thread must give its core back to the other worker.
 */

/** Intra-op threads from DOCAI_OCR_THREADS (1..cores), else 1. */
export function ocrThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number.parseInt(env.DOCAI_OCR_THREADS ?? '', 10);
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, Math.max(1, availableParallelism()));
}

export interface OcrModels {
  det: ort.InferenceSession;
  /** Recogniser sessions, one per OCR thread (one intra-op thread each); recognizeLines spreads lines over them. */
  rec: ort.InferenceSession[];
  cls: ort.InferenceSession;
  /** index -> character for the recognition output; index 0 is the CTC blank (''). */
  charset: string[];
}

let loading: Promise<OcrModels> | null = null;

/**
 * The model file with its per-convolution affine and hard-swish chains folded (fold-affine-blocks.ts: same function,
 * measured per run on one thread: recogniser 79 -> 60 ms CPU on a 48x1000 line, detector 203 -> 142 ms on 960x736,
 * classifier 17 -> 10.5 ms on 16 lines; about 0.4 s once per process for the three files).
 */
export async function optimizedModelBytes(path: string): Promise<Uint8Array> {
  return foldAffineBlocks(await readFile(path)).model;
}

async function session(model: Uint8Array, threads: number): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(model, {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    // Input shapes change with every page and line batch: an arena keeps the largest ever seen
    // (measured: peak RSS 640 -> 500 MB on a 16 MP scan, same speed).
    enableCpuMemArena: false,
    enableMemPattern: false,
    ...(threads > 1 ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {}),
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
  const threads = ocrThreads();
  const bytes = (id: ModelId) => locateModel(id).then(optimizedModelBytes);
  const [detModel, recModel, clsModel, charset] = await Promise.all([bytes('ocr-det'), bytes('ocr-rec'), bytes('ocr-cls'), loadCharset()]);
  const [det, cls, ...rec] = await Promise.all([
    session(detModel, threads),
    session(clsModel, 1),
    ...Array.from({ length: threads }, () => session(recModel, 1)),
  ]);
  return { det: det!, rec, cls: cls!, charset };
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
