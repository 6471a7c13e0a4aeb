import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeGenerated as decode, GEN } from './generated-image.js';
import type { TextLine } from '../../../../engine/core/page.js';
import { ocrImage } from '../../../../engine/vision/ocr/ocr-page.js';
import type { OcrFixtureTruth } from '../../../fixtures/make-ocr.js';



function truth(name: string): OcrFixtureTruth {
  return JSON.parse(readFileSync(join(GEN, name), 'utf8')) as OcrFixtureTruth;
}

const nfkc = (s: string) => s.normalize('NFKC');
const squash = (s: string) => nfkc(s).replace(/\s+/g, '');

/** The OCR line whose box overlaps the drawn line most. */
function lineAt(lines: TextLine[], box: [number, number, number, number]): TextLine | undefined {
  let best: TextLine | undefined;
  let bestOverlap = 0;
  for (const l of lines) {
    const w = Math.min(l.bbox[2], box[2]) - Math.max(l.bbox[0], box[0]);
    const h = Math.min(l.bbox[3], box[3]) - Math.max(l.bbox[1], box[1]);
    const o = w > 0 && h > 0 ? w * h : 0;
    if (o > bestOverlap) {
      bestOverlap = o;
      best = l;
    }
  }
  return best;
}

function expectPage(res: Awaited<ReturnType<typeof ocrImage>>, t: OcrFixtureTruth, tolerance: number) {
  expect(res.width).toBe(t.width);
  expect(res.height).toBe(t.height);
  expect(res.lines.map((l) => squash(l.text))).toEqual(t.lines.map((l) => squash(l.text)));
  for (const drawn of t.lines) {
    const got = lineAt(res.lines, drawn.bbox);
    expect(got, drawn.text).toBeDefined();
    expect(squash(got!.text)).toBe(squash(drawn.text));
    for (let k = 0; k < 4; k++) expect(Math.abs(got!.bbox[k]! - drawn.bbox[k]!), `${drawn.text} edge ${k}`).toBeLessThanOrEqual(tolerance);
    expect(got!.source).toBe('ocr');
    expect(got!.confidence).toBeGreaterThan(0.8);
    expect(got!.runs).toHaveLength(1);
    expect(got!.runs[0]!.text).toBe(got!.text);
    // Line height in pixels, close to the drawn font size (the box includes a little leading).
    expect(got!.fontSize).toBeGreaterThan(drawn.fontSize * 0.8);
    expect(got!.fontSize).toBeLessThan(drawn.fontSize * 1.6);
  }
}

describe('ocrImage', () => {
  let page: OcrFixtureTruth;
  beforeAll(() => {
    page = truth('ocr-page.json');
  });

  it('reads a Chinese + English line image exactly, with word spaces', async () => {
    const t = truth('ocr-line.json');
    const res = await ocrImage(await decode('ocr-line.png'));
    expect(res.rotation).toBe(0);
    // NFKC turns the full-width colon into ':'; English keeps its word spaces.
    expect(res.lines.map((l) => l.text)).toEqual(['扫描日期:2025年6月18日', 'Invoice No. A-20931 Total 4,560.00']);
    expectPage(res, t, 10);
  });

  it('reads an upright page with boxes where the text was drawn', async () => {
    const res = await ocrImage(await decode('ocr-page.png'));
    expect(res.rotation).toBe(0);
    expect(Math.abs(res.skewDegrees)).toBeLessThan(0.6);
    // Chinese is written without spaces: the gap drawn between two CJK words is not kept.
    expect(res.lines[1]!.text).toBe('联系人:王晓明电话:021-58886666');
    expect(res.lines[4]!.text).toBe('Thank you for your business');
    expectPage(res, page, 10);
  });

  // A page turned clockwise by d needs (360 - d) more to be upright again.
  for (const [file, rotation] of [
    ['ocr-page-cw90.png', 270],
    ['ocr-page-cw180.png', 180],
    ['ocr-page-cw270.png', 90],
  ] as const) {
    it(`turns ${file} upright (rotation ${rotation}) and reads it`, async () => {
      const res = await ocrImage(await decode(file));
      expect(res.rotation).toBe(rotation);
      expectPage(res, page, 10);
    });
  }

  it('leaves a rotated page as it is when orientation detection is off', async () => {
    const res = await ocrImage(await decode('ocr-page-cw180.png'), { detectOrientation: false });
    expect(res.rotation).toBe(0);
    expect(res.lines.map((l) => squash(l.text))).not.toContain(squash(page.lines[0]!.text));
  });

  it('reads a 4-degree skewed photo-like page in order, boxes around the tilted lines', async () => {
    const t = truth('ocr-page-skew.json');
    const res = await ocrImage(await decode('ocr-page-skew.jpg'));
    expect(res.rotation).toBe(0);
    // Drawn turned 4 degrees clockwise.
    expect(res.skewDegrees).toBeGreaterThan(3);
    expect(res.skewDegrees).toBeLessThan(5);
    expectPage(res, t, 14);
  });
});
