import { describe, it, expect } from 'vitest';
import { findBorderlessTables } from '../../../../engine/vision/table/borderless-table.js';
import { splitLineIntoPieces } from '../../../../engine/vision/table/text-pieces.js';
import type { TextLine } from '../../../../engine/core/page.js';

/** A row as a PDF reader gives it: one line whose runs sit at the column positions. */
function row(cells: [string, number][], y: number): TextLine {
  const runs = cells.map(([text, x]) => ({ text, bbox: [x, y, x + text.length * 10, y + 20] as [number, number, number, number], fontSize: 20 }));
  return { text: cells.map((c) => c[0]).join(' '), bbox: [runs[0]!.bbox[0], y, runs[runs.length - 1]!.bbox[2], y + 20], runs, fontSize: 20, bold: false, source: 'text', confidence: 1 };
}

describe('findBorderlessTables', () => {
  it('finds a numeric table from aligned runs, with a label row inside it', () => {
    const lines = [
      row([['Segment', 100], ['2024', 600], ['2023', 800]], 100),
      row([['Americas', 100], ['1,204', 590], ['1,100', 790]], 130),
      row([['Europe', 100]], 160),
      row([['Retail', 120], ['310', 610], ['298', 810]], 190),
      row([['Wholesale', 120], ['(42)', 600], ['15', 820]], 220),
    ];
    const found = findBorderlessTables(lines.flatMap(splitLineIntoPieces));
    expect(found).toHaveLength(1);
    const g = found[0]!.grid;
    expect([g.rows, g.cols]).toEqual([5, 3]);
    const cell = (r: number, c: number): string => g.cells.find((x) => x.row === r && x.col === c)!.text;
    expect(cell(1, 1)).toBe('1,204');
    expect(cell(2, 0)).toBe('Europe');
    expect(cell(2, 1)).toBe('');
    expect(cell(4, 1)).toBe('(42)');
  });

  it('finds nothing in aligned words without numbers', () => {
    const lines = [0, 1, 2, 3].map((i) => row([['alpha', 100], ['bravo', 600], ['charlie', 800]], 100 + i * 30));
    expect(findBorderlessTables(lines.flatMap(splitLineIntoPieces))).toHaveLength(0);
  });
});
