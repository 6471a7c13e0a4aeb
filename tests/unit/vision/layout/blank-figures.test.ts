import { describe, expect, it } from 'vitest';
import type { TextLine } from '../../../../engine/core/page.js';
import { blankBandFigures } from '../../../../engine/vision/layout/blank-figures.js';

function line(text: string, x1: number, y1: number, x2: number, y2: number): TextLine {
  return { text, bbox: [x1, y1, x2, y2], runs: [{ text, bbox: [x1, y1, x2, y2], fontSize: y2 - y1 }], fontSize: y2 - y1, bold: false, source: 'ocr', confidence: 0.9 };
}

const para = (y0: number, n: number): TextLine[] => Array.from({ length: n }, (_, i) => line(`running text of a paragraph in this column, line ${i}`, 100, y0 + i * 30, 900, y0 + i * 30 + 20));

describe('blankBandFigures', () => {
  it('finds a tall blank band between two paragraphs, keeping axis labels inside it', () => {
    const lines = [...para(100, 5), line('10%', 120, 400, 160, 420), line('0%', 120, 600, 150, 620), ...para(800, 5)];
    const figs = blankBandFigures(lines, [], 1000, 1400);
    expect(figs).toHaveLength(1);
    const [x1, y1, x2, y2] = figs[0]!;
    expect(x1).toBe(100);
    expect(x2).toBe(900);
    expect(y1).toBeGreaterThan(240);
    expect(y1).toBeLessThan(260);
    expect(y2).toBeGreaterThan(785);
    expect(y2).toBeLessThan(800);
  });

  it('finds nothing where only paragraph breaks separate the text', () => {
    const lines = [...para(100, 5), ...para(300, 5), line('a line of running text between the paragraphs', 100, 480, 900, 500), ...para(560, 3)];
    expect(blankBandFigures(lines, [], 1000, 1400)).toEqual([]);
  });

  it('takes a narrow column of short lines for text, not for the labels of a graphic', () => {
    const column = Array.from({ length: 11 }, (_, i) => line(`短行文字${i}`, 120, 450 + i * 30, 420, 470 + i * 30));
    expect(blankBandFigures([...para(100, 5), ...column, ...para(850, 3)], [], 1000, 1400)).toEqual([]);
  });
});
