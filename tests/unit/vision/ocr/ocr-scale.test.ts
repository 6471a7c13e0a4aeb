import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeGenerated as decode, GEN } from './generated-image.js';
import type { TextLine } from '../../../../engine/core/page.js';
import { detectionSize } from '../../../../engine/vision/ocr/detect-text-boxes.js';
import { boxesOutside, keepReadLine, largeWeakOnly, ocrImage } from '../../../../engine/vision/ocr/ocr-page.js';
import type { DetectedBox } from '../../../../engine/vision/ocr/detect-text-boxes.js';


interface Truth {
  width: number;
  height: number;
  lines: { text: string; bbox: [number, number, number, number]; fontSize: number }[];
}


const truth = (name: string) => JSON.parse(readFileSync(join(GEN, name), 'utf8')) as Truth;
const squash = (s: string) => s.normalize('NFKC').replace(/\s+/g, '');

function lineAt(lines: TextLine[], box: [number, number, number, number]): TextLine | undefined {
  let best: TextLine | undefined;
  let bestOverlap = 0;
  for (const l of lines) {
    const w = Math.min(l.bbox[2], box[2]) - Math.max(l.bbox[0], box[0]);
    const h = Math.min(l.bbox[3], box[3]) - Math.max(l.bbox[1], box[1]);
    if (w > 0 && h > 0 && w * h > bestOverlap) {
      bestOverlap = w * h;
      best = l;
    }
  }
  return best;
}

describe('detector input size', () => {
  it('enlarges a low-resolution page towards a 960 px shorter side', () => {
    expect(detectionSize(600, 800, 1280, 960)).toEqual({ w: 960, h: 1280 });
    expect(detectionSize(596, 842, 1280, 960)).toEqual({ w: 896, h: 1280 });
  });
  it('leaves 150-300 dpi pages at a 1280 px longer side', () => {
    expect(detectionSize(1654, 2339, 1280, 960)).toEqual({ w: 896, h: 1280 });
    expect(detectionSize(2480, 3508, 1280, 960)).toEqual({ w: 896, h: 1280 });
    expect(detectionSize(1240, 1754, 1280, 960)).toEqual({ w: 896, h: 1280 });
  });
  it('enlarges a small image at most twice', () => {
    expect(detectionSize(300, 100, 1280, 960)).toEqual({ w: 608, h: 192 });
    expect(detectionSize(300, 100, 1280)).toEqual({ w: 288, h: 96 });
  });
});

describe('weak detector boxes', () => {
  it('keeps a weak box only when its line reads confidently', () => {
    expect(keepReadLine(0.55, 0.99)).toBe(true);
    expect(keepReadLine(0.55, 0.7)).toBe(false);
    expect(keepReadLine(0.7, 0.6)).toBe(true);
    expect(keepReadLine(0.9, 0.4)).toBe(false);
  });
});

function box(h: number, score: number): DetectedBox {
  return {
    quad: [
      [0, 0],
      [200, 0],
      [200, h],
      [0, h],
    ],
    rect: { cx: 100, cy: h / 2, w: 200, h, angle: 0 },
    score,
  };
}

describe('weak boxes worth reading', () => {
  it('reads weak boxes only when they stand taller than the page text', () => {
    const boxes = [box(20, 0.8), box(22, 0.7), box(18, 0.9), box(40, 0.5), box(21, 0.5)];
    // Median sure height 20: a weak box needs 28 px.
    expect(largeWeakOnly(boxes).map((b) => [b.rect.h, b.score])).toEqual([
      [20, 0.8],
      [22, 0.7],
      [18, 0.9],
      [40, 0.5],
    ]);
  });
  it('keeps every weak box when there is no sure one', () => {
    expect(largeWeakOnly([box(12, 0.5), box(30, 0.55)])).toHaveLength(2);
  });
});

function at(x1: number, y1: number, x2: number, y2: number): DetectedBox {
  return {
    quad: [
      [x1, y1],
      [x2, y1],
      [x2, y2],
      [x1, y2],
    ],
    rect: { cx: (x1 + x2) / 2, cy: (y1 + y2) / 2, w: x2 - x1, h: y2 - y1, angle: 0 },
    score: 0.8,
  };
}

describe('enlarged detection pass', () => {
  it('adds only the lines the native pass missed', () => {
    const native = [at(40, 50, 300, 64), at(40, 66, 300, 80)];
    const enlarged = [at(41, 52, 298, 62), at(40, 67, 299, 78), at(40, 290, 560, 300), at(200, 70, 320, 84)];
    // The caption line is new; the two re-found lines and a box half inside a native one are not.
    expect(boxesOutside(enlarged, native).map((b) => b.quad[0])).toEqual([[40, 290]]);
  });
});

describe('ocrImage on text far from the usual size', () => {
  it('reads every line of a 600 px page with 7 px text set solid', async () => {
    const t = truth('ocr-small-print.json');
    const res = await ocrImage(await decode('ocr-small-print.png'));
    expect(res.rotation).toBe(0);
    expect(res.lines.map((l) => squash(l.text))).toEqual(t.lines.map((l) => squash(l.text)));
    for (const drawn of t.lines) {
      const got = lineAt(res.lines, drawn.bbox)!;
      expect(squash(got.text)).toBe(squash(drawn.text));
      for (let k = 0; k < 4; k++) expect(Math.abs(got.bbox[k]! - drawn.bbox[k]!), `${drawn.text} edge ${k}`).toBeLessThanOrEqual(4);
    }
  });

  it('reads a 150 px headline above small print', async () => {
    const t = truth('ocr-headline.json');
    const res = await ocrImage(await decode('ocr-headline.png'));
    expect(res.lines).toHaveLength(3);
    expect(squash(res.lines[1]!.text)).toBe(squash(t.lines[1]!.text));
    const head = lineAt(res.lines, t.lines[0]!.bbox)!;
    expect(head.text).toBe('春季农产品价格回落');
    for (let k = 0; k < 4; k++) expect(Math.abs(head.bbox[k]! - t.lines[0]!.bbox[k]!), `edge ${k}`).toBeLessThanOrEqual(16);
    expect(head.fontSize).toBeGreaterThan(120);
  });
});
