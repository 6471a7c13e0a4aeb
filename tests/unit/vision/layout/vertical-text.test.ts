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

describe('joinVerticalText across missed characters', () => {
  it('joins a large vertical headline whose stack has gaps (OCR missed characters), beside a column of body lines', () => {
    const body = Array.from({ length: 12 }, (_, i) => line('正文每一行都是十几个汉字组成的句子', 100, 100 + i * 14, 400, 113 + i * 14));
    const glyphs = [line('金', 420, 100, 452, 132), line('农', 420, 180, 452, 212), line('工', 420, 230, 452, 262)];
    const out = joinVerticalText([...body, ...glyphs]);
    const v = out.find((l) => l.text === '金农工');
    expect(v?.bbox).toEqual([420, 100, 452, 262]);
    expect(out).toHaveLength(13);
  });

  it('does not join the glyphs when a body line runs across the gap between them', () => {
    const body = Array.from({ length: 12 }, (_, i) => line('正文每一行都是十几个汉字组成的句子', 100, 100 + i * 14, 400, 113 + i * 14));
    const across = line('这一行横跨标题栏一直写到右边', 100, 150, 470, 163);
    const glyphs = [line('金', 420, 100, 452, 132), line('农', 420, 180, 452, 212), line('工', 420, 230, 452, 262)];
    expect(joinVerticalText([...body, across, ...glyphs])).toHaveLength(16);
  });
});
