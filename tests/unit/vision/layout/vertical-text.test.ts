import { describe, expect, it } from 'vitest';
import type { TextLine } from '../../../../engine/core/page.js';
import { joinVerticalText } from '../../../../engine/vision/layout/vertical-text.js';

function line(text: string, x1: number, y1: number, x2: number, y2: number): TextLine {
  return { text, bbox: [x1, y1, x2, y2], runs: [{ text, bbox: [x1, y1, x2, y2], fontSize: y2 - y1 }], fontSize: y2 - y1, bold: false, source: 'ocr', confidence: 0.9 };
}

describe('joinVerticalText', () => {
  it('joins a stack of single CJK characters into one tall line read top to bottom', () => {
    const stack = ['年', '度', '报', '告'].map((c, i) => line(c, 20, 100 + i * 50, 60, 140 + i * 50));
    const body = line('正文第一行文字内容', 120, 100, 800, 130);
    const out = joinVerticalText([...stack, body]);
    expect(out).toHaveLength(2);
    const v = out.find((l) => l !== body)!;
    expect(v.text).toBe('年度报告');
    expect(v.bbox).toEqual([20, 100, 60, 290]);
  });

  it('leaves a column of numbers (a table column) and spaced-out characters alone', () => {
    const numbers = ['19', '23', '17'].map((c, i) => line(c, 500, 100 + i * 45, 530, 125 + i * 45));
    const spaced = ['甲', '乙', '丙'].map((c, i) => line(c, 700, 100 + i * 100, 730, 130 + i * 100));
    expect(joinVerticalText([...numbers, ...spaced])).toHaveLength(6);
  });
});
