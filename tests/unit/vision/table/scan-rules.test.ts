import { describe, expect, it } from 'vitest';
import type { Page, RuleLine, TextLine } from '../../../../engine/core/page.js';
import { findRuledAreas, splitRules } from '../../../../engine/vision/table/ruled-table.js';
import { detectTables } from '../../../../engine/vision/table/detect-tables.js';

const h = (y: number, x1: number, x2: number, y2 = y): RuleLine => ({ x1, y1: y, x2, y2, width: 2 });
const v = (x: number, y1: number, y2: number): RuleLine => ({ x1: x, y1, x2: x, y2, width: 2 });
function line(text: string, x: number, y: number, w: number): TextLine {
  const bbox: [number, number, number, number] = [x, y, x + w, y + 20];
  return { text, bbox, runs: [{ text, bbox, fontSize: 20 }], fontSize: 20, bold: false, source: 'ocr', confidence: 0.9 };
}
const PROSE = 'The committee reviewed every application received during the spring term and';

describe('rules of scanned pages', () => {
  it('takes a rule tilted by 1 degree as horizontal, and one tilted by 10 degrees as neither', () => {
    const { h: hs, v: vs } = splitRules([h(100, 100, 900, 114), h(300, 100, 900, 441)]);
    expect(hs).toHaveLength(1);
    expect(hs[0]!.y).toBe(107);
    expect(vs).toHaveLength(0);
  });

  it('sets aside a frame drawn around the page content and finds the table inside it', () => {
    const frame = [h(100, 50, 1150), h(1600, 50, 1150), v(50, 100, 1600), v(1150, 100, 1600)];
    // A 3 x 2 grid table touching neither side of the frame.
    const table = [h(700, 300, 900), h(760, 300, 900), h(820, 300, 900), h(880, 300, 900), v(300, 700, 880), v(600, 700, 880), v(900, 700, 880)];
    const areas = findRuledAreas([...frame, ...table], 1200, 1700);
    expect(areas.map((a) => a.bbox)).toEqual([[300, 700, 900, 880]]);
  });

  it('finds the table between stacked rules, not the prose between the page rules', () => {
    // Page rules at 100 and 1600, table rules (top, under the header, bottom) at 600, 650 and 820.
    const rules = [h(100, 80, 1120), h(600, 80, 1120), h(650, 80, 1120), h(820, 80, 1120), h(1600, 80, 1120)];
    const lines: TextLine[] = [];
    for (let i = 0; i < 6; i++) lines.push(line(PROSE, 80, 150 + i * 40, 1000));
    [['Item', 'Count', 'Price'], ['Pens', '12', '3.50'], ['Paper', '500', '9.99'], ['Ink', '4', '21.00']].forEach((row, r) =>
      row.forEach((t, c) => lines.push(line(t, 100 + c * 400, (r === 0 ? 615 : 665) + (r === 0 ? 0 : (r - 1) * 50), 80))),
    );
    for (let i = 0; i < 6; i++) lines.push(line(PROSE, 80, 900 + i * 40, 1000));
    const page: Page = { pageNumber: 1, width: 1200, height: 1700, lines, rules, images: [], ocr: true, rotation: 0 };
    const { tables } = detectTables(page, lines);
    expect(tables).toHaveLength(1);
    expect(tables[0]!.grid.bbox).toEqual([80, 600, 1120, 820]);
    expect([tables[0]!.grid.rows, tables[0]!.grid.cols]).toEqual([4, 3]);
    expect(tables[0]!.grid.cells.find((c) => c.row === 2 && c.col === 2)!.text).toBe('9.99');
    expect(tables[0]!.lines.some((l) => l.text === PROSE)).toBe(false);
  });

  it('leaves a ruled frame around a picture as no table, and keeps a shaded grid of text as one', () => {
    const frame = [h(200, 100, 700), h(600, 100, 700), h(640, 100, 700), v(100, 200, 640), v(700, 200, 640)];
    const caption = [line('Fig. 1 The hall', 120, 610, 200)];
    const pic: Page = { pageNumber: 1, width: 1200, height: 1700, lines: caption, rules: frame, images: [{ bbox: [110, 210, 690, 590] }], ocr: true, rotation: 0 };
    expect(detectTables(pic, caption).tables).toHaveLength(0);
    const grid = [h(200, 100, 700), h(240, 100, 700), h(280, 100, 700), v(100, 200, 280), v(400, 200, 280), v(700, 200, 280)];
    const cells = [line('Value', 120, 210, 80), line('Count', 420, 210, 80), line('$10', 120, 250, 50), line('3', 420, 250, 20)];
    const shaded: Page = { pageNumber: 1, width: 1200, height: 1700, lines: cells, rules: grid, images: [{ bbox: [100, 200, 700, 280] }], ocr: true, rotation: 0 };
    const { tables } = detectTables(shaded, cells);
    expect(tables).toHaveLength(1);
    expect(tables[0]!.grid.cells.map((c) => c.text)).toEqual(['Value', 'Count', '$10', '3']);
  });

  it('reports a frame holding a block diagram (boxes drawn with rules, a few labels) as a drawing, not a table', () => {
    const frame = [h(100, 100, 1000), h(400, 100, 1000), v(100, 100, 400), v(1000, 100, 400)];
    const boxes = [200, 450, 700].flatMap((x) => [h(200, x, x + 150), h(300, x, x + 150), v(x, 200, 300), v(x + 150, 200, 300)]);
    const labels = [line('Mapper', 215, 240, 120), line('Filter', 465, 240, 100), line('Mixer', 715, 240, 100)];
    const page: Page = { pageNumber: 1, width: 1200, height: 1700, lines: labels, rules: [...frame, ...boxes], images: [], ocr: true, rotation: 0 };
    const { tables, graphics } = detectTables(page, labels);
    expect(tables).toHaveLength(0);
    expect(graphics).toContainEqual([100, 100, 1000, 400]);
  });

  it('keeps two framed boxes far apart as two ruled areas', () => {
    const box = (y: number): RuleLine[] => [h(y, 100, 900), h(y + 200, 100, 900), v(100, y, y + 200), v(900, y, y + 200)];
    const areas = findRuledAreas([...box(100), ...box(900)], 1200, 1700);
    expect(areas.map((a) => a.bbox)).toEqual([
      [100, 100, 900, 300],
      [100, 900, 900, 1100],
    ]);
  });
});
