import type { InferenceSession } from 'onnxruntime-node';

/**
 * Session options for every ONNX model the engine runs on the CPU (OCR, a learned layout model): `threads` intra-op
 * threads whose pool does not spin (a spinning pool doubled the CPU per page under load), one inter-op thread,
 * full graph optimisation. Input shapes change with every page and line, so there is no arena or memory pattern:
 * an arena keeps the largest buffers ever seen (measured: peak RSS 640 -> 500 MB on a 16 MP scan, same speed).
 */
export function cpuSessionOptions(threads: number): InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    executionProviders: ['cpu'],
    enableCpuMemArena: false,
    enableMemPattern: false,
    ...(threads > 1 ? { extra: { session: { intra_op: { allow_spinning: '0' } } } } : {}),
  };
}
