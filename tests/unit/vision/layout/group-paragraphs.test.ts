import { describe, expect, it } from 'vitest';
import type { BBox } from '../../../../engine/core/geometry.js';
import type { TextLine } from '../../../../engine/core/page.js';
import { mergeRowLines } from '../../../../engine/vision/layout/group-paragraphs.js';

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
