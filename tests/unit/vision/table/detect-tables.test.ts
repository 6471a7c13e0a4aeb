import { describe, it, expect } from 'vitest';
import { detectTables } from '../../../../engine/vision/table/detect-tables.js';
import type { Page, TextLine } from '../../../../engine/core/page.js';

function ocrLine(text: string, x: number, y: number, w: number): TextLine {
  const bbox: [number, number, number, number] = [x, y, x + w, y + 14];
  return { text, bbox, runs: [{ text, bbox, fontSize: 14 }], fontSize: 14, bold: false, source: 'ocr', confidence: 0.9 };
}

describe('detectTables', () => {
  it('takes the rows of short word cells under a "Table n" caption as a table, and stops at prose', () => {
    const cells = [
      ['Muscle', 'Origin', 'Nerve'],
      ['Deltoid', 'Clavicle', 'Axillary'],
      ['Teres major', 'Scapula', 'Subscapular'],
      ['Trapezius', 'Occiput', 'Accessory'],
    ];
    const lines: TextLine[] = [ocrLine('Table 2: Shoulder muscles', 60, 40, 220)];
    cells.forEach((row, r) => row.forEach((t, c) => lines.push(ocrLine(t, 60 + c * 170, 70 + r * 22, t.length * 8))));
    lines.push(ocrLine('The muscles listed above move the shoulder joint in every direction of its range.', 60, 190, 480));
    const page: Page = { pageNumber: 1, width: 600, height: 800, lines, rules: [], images: [], ocr: true, rotation: 0 };
    const { tables } = detectTables(page, lines);
    expect(tables).toHaveLength(1);
    const g = tables[0]!.grid;
    expect([g.rows, g.cols]).toEqual([4, 3]);
    expect(g.cells.find((c) => c.row === 2 && c.col === 2)!.text).toBe('Subscapular');
    expect(tables[0]!.lines.some((l) => l.text.startsWith('The muscles'))).toBe(false);
    expect(tables[0]!.lines.some((l) => l.text.startsWith('Table 2'))).toBe(false);
  });
});
