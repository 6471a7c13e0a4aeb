import { describe, expect, it } from 'vitest';
import type { BBox } from '../../../../engine/core/geometry.js';
import type { TextLine } from '../../../../engine/core/page.js';
import { groupParagraphs, mergeRowLines } from '../../../../engine/vision/layout/group-paragraphs.js';

function ocrLine(text: string, bbox: BBox): TextLine {
  return { text, bbox, runs: [{ text, bbox, fontSize: bbox[3] - bbox[1] }], fontSize: bbox[3] - bbox[1], bold: false, source: 'ocr', confidence: 0.95 };
}

describe('mergeRowLines', () => {
  it('joins pieces of one row left to right', () => {
    const out = mergeRowLines([ocrLine('second', [300, 100, 400, 114]), ocrLine('first', [100, 101, 280, 115])]);
    expect(out.map((l) => l.text)).toEqual(['first second']);
  });

  it('does not join a box more than twice as tall (a vertical headline beside the row)', () => {
    const row = ocrLine('正文的一行文字', [100, 130, 400, 144]);
    const headline = ocrLine('标题竖排', [420, 100, 452, 230]);
    const out = mergeRowLines([row, headline]);
    expect(out).toHaveLength(2);
    expect(out.map((l) => l.text).sort()).toEqual(['标题竖排', '正文的一行文字']);
  });
});

describe('groupParagraphs with display equations', () => {
  it('gives a numbered display equation and its number far out at the margin a box each', () => {
    const lines = [
      ocrLine('we find the fundamental Poisson brackets of the fields', [100, 100, 900, 114]),
      ocrLine('[U(x), P(y)] = d(x - y),', [150, 130, 400, 150]),
      ocrLine('(13)', [860, 132, 900, 148]),
      ocrLine('etc., and the constraints of the model follow from them', [100, 166, 900, 180]),
    ];
    const paras = groupParagraphs(lines);
    expect(paras.map((p) => p.map((l) => l.text).join(' '))).toEqual([
      'we find the fundamental Poisson brackets of the fields',
      '[U(x), P(y)] = d(x - y),',
      '(13)',
      'etc., and the constraints of the model follow from them',
    ]);
    expect(paras[1]![0]!.bbox).toEqual([150, 130, 400, 150]);
    expect(paras[2]![0]!.bbox).toEqual([860, 132, 900, 148]);
  });
});
