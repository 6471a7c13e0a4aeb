import { describe, it, expect } from 'vitest';
import { findRuledAreas, gridCells } from '../../../../engine/vision/table/ruled-table.js';
import { runPieces } from '../../../../engine/vision/table/text-pieces.js';
import type { RuleLine, TextLine } from '../../../../engine/core/page.js';

const h = (y: number, x1: number, x2: number): RuleLine => ({ x1, y1: y, x2, y2: y, width: 1 });
const v = (x: number, y1: number, y2: number): RuleLine => ({ x1: x, y1, x2: x, y2, width: 1 });
function word(text: string, x: number, y: number): TextLine {
  const bbox: [number, number, number, number] = [x, y, x + 40, y + 16];
  return { text, bbox, runs: [{ text, bbox, fontSize: 16 }], fontSize: 16, bold: false, source: 'text', confidence: 1 };
}

describe('ruled tables', () => {
  it('builds a 3x3 grid where a missing separator merges two cells down', () => {
    // columns 100 | 300 | 500 | 700, rows 100 | 140 | 180 | 220; the rule under (0,0) is missing
    const rules = [h(100, 100, 700), h(140, 300, 700), h(180, 100, 700), h(220, 100, 700), v(100, 100, 220), v(300, 100, 220), v(500, 100, 220), v(700, 100, 220)];
    const areas = findRuledAreas(rules, 1190);
    expect(areas).toHaveLength(1);
    const lines = [word('Name', 110, 110), word('Q1', 310, 110), word('Q2', 510, 110), word('7', 310, 150), word('8', 510, 150), word('Total', 110, 190), word('15', 310, 190), word('16', 510, 190)];
    const grid = gridCells({ ...areas[0]!, xs: areas[0]!.xs! }, runPieces(lines), 3)!;
    expect([grid.rows, grid.cols]).toEqual([3, 3]);
    expect(grid.cells.find((c) => c.row === 0 && c.col === 0)).toMatchObject({ text: 'Name', rowSpan: 2, colSpan: 1, bbox: [100, 100, 300, 180] });
    expect(grid.cells.find((c) => c.row === 1 && c.col === 2)!.text).toBe('8');
    expect(grid.cells.find((c) => c.row === 2 && c.col === 0)!.text).toBe('Total');
    expect(grid.cells).toHaveLength(8);
  });
});
