import { describe, expect, it } from 'vitest';
import type { BBox } from '../../../../engine/core/geometry.js';
import type { TextLine } from '../../../../engine/core/page.js';
import { splitOcrLinesAtGutters } from '../../../../engine/vision/layout/split-ocr-columns.js';

function ocrLine(text: string, bbox: BBox): TextLine {
  return { text, bbox, runs: [{ text, bbox, fontSize: bbox[3] - bbox[1] }], fontSize: bbox[3] - bbox[1], bold: false, source: 'ocr', confidence: 0.95 };
}

/** Two columns of 14 OCR lines each, 100..290 and 300..490, rows 14 px apart from y. */
function columns(y: number): TextLine[] {
  return Array.from({ length: 14 }, (_, i) => [
    ocrLine(`left column words in row ${i}`, [100, y + 14 * i, 290, y + 12 + 14 * i]),
    ocrLine(`right column words in row ${i}`, [300, y + 14 * i, 490, y + 12 + 14 * i]),
  ]).flat();
}

describe('splitOcrLinesAtGutters', () => {
  it('cuts a line that OCR joined across the gutter between column lines', () => {
    const joined = ocrLine('left words joined here right words joined here', [100, 100 + 14 * 14, 490, 112 + 14 * 14]);
    const out = splitOcrLinesAtGutters([...columns(100), joined, ...columns(100 + 15 * 14).slice(0, 6)], 600);
    expect(out.find((l) => l.text === 'left words joined here')?.bbox[2]).toBeLessThan(300);
    expect(out.find((l) => l.text === 'right words joined here')?.bbox[0]).toBeGreaterThan(290);
  });

  it('keeps a block of full-width lines (an abstract over the two columns) whole', () => {
    const abstract = Array.from({ length: 8 }, (_, i) => ocrLine(`abstract sentence number ${i} runs across the whole width of the page`, [100, 20 + 14 * i, 490, 32 + 14 * i]));
    const out = splitOcrLinesAtGutters([...abstract, ...columns(160)], 600);
    for (const a of abstract) expect(out).toContain(a);
    expect(out).toHaveLength(8 + 28);
  });
});
