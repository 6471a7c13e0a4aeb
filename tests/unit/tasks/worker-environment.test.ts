import { describe, expect, it } from 'vitest';
import { workerEnvironment } from '../../../engine/tasks/worker-pool.js';

describe('workerEnvironment', () => {
  it('hands the settings model folder to the children', () => {
    const env = workerEnvironment({ PATH: '/usr/bin' }, { size: 2, modelDir: '/models/mine', cores: 2 });
    expect(env.DOCAI_MODEL_DIR).toBe('/models/mine');
    expect(env.PATH).toBe('/usr/bin');
  });
  it('gives a single worker two OCR threads and keeps one each for two workers', () => {
    expect(workerEnvironment({}, { size: 1, cores: 2 }).DOCAI_OCR_THREADS).toBe('2');
    expect(workerEnvironment({}, { size: 2, cores: 2 }).DOCAI_OCR_THREADS).toBeUndefined();
    expect(workerEnvironment({}, { size: 1, cores: 1 }).DOCAI_OCR_THREADS).toBeUndefined();
  });
  it('leaves an explicit thread count and a missing model folder alone', () => {
    const env = workerEnvironment({ DOCAI_OCR_THREADS: '1' }, { size: 1, modelDir: null, cores: 2 });
    expect(env.DOCAI_OCR_THREADS).toBe('1');
    expect(env.DOCAI_MODEL_DIR).toBeUndefined();
  });
});
