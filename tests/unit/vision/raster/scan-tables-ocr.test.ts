import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDocument } from '../../../../engine/vision/read-document.js';
import { detectTables } from '../../../../engine/vision/table/detect-tables.js';
import { readFileSync } from 'node:fs';
import { BORDERLESS_CELLS, RASTER_FIXTURES, RULED_CELLS, type RasterFixtureTruth } from '../../../fixtures/make-raster.js';

const GEN = join(import.meta.dirname, '../../../fixtures/generated');

/** Through the real OCR: a scanned page's rules and graphics come from its pixels (ocrPage -> analyseRaster). */
describe('tables on scanned pages (OCR)', () => {
  it('reads a ruled table and a borderless numeric table with their exact cells', async () => {
    const ruled = (await readDocument(join(GEN, RASTER_FIXTURES.ruledTable), { fileName: 'ruled.png' })).pages[0]!;
    expect(ruled.ocr).toBe(true);
    expect(ruled.rules.filter((r) => Math.abs(r.x2 - r.x1) > Math.abs(r.y2 - r.y1))).toHaveLength(5);
    expect(ruled.rules.filter((r) => Math.abs(r.x2 - r.x1) < Math.abs(r.y2 - r.y1))).toHaveLength(4);
    expect(ruled.images).toEqual([]);
    const t1 = detectTables(ruled, ruled.lines).tables;
    expect(t1).toHaveLength(1);
    expect(RULED_CELLS.map((row, r) => row.map((_, c) => t1[0]!.grid.cells.find((x) => x.row === r && x.col === c)?.text))).toEqual(RULED_CELLS);

    const plain = (await readDocument(join(GEN, RASTER_FIXTURES.borderlessTable), { fileName: 'plain.png' })).pages[0]!;
    expect(plain.rules).toEqual([]);
    const t2 = detectTables(plain, plain.lines).tables;
    expect(t2).toHaveLength(1);
    expect(BORDERLESS_CELLS.map((row, r) => row.map((_, c) => t2[0]!.grid.cells.find((x) => x.row === r && x.col === c)?.text))).toEqual(BORDERLESS_CELLS);
  });

  it('reads the ruled table of a scanned PDF page, its rules in the 144 dpi page space', async () => {
    const truth = JSON.parse(readFileSync(join(GEN, RASTER_FIXTURES.ruledTable.replace('.png', '.json')), 'utf8')) as RasterFixtureTruth;
    const page = (await readDocument(join(GEN, RASTER_FIXTURES.ruledTablePdf), { fileName: 'scan.pdf' })).pages[0]!;
    expect(page.ocr).toBe(true);
    // The PNG sits on the page at 150 dpi: page pixels (144 dpi) are 0.96 of its pixels.
    const k = 144 / 150;
    expect([page.width, page.height]).toEqual([Math.round(truth.width * k), Math.round(truth.height * k)]);
    expect(page.rules).toHaveLength(9);
    const top = page.rules.filter((r) => Math.abs(r.x2 - r.x1) > 100).sort((a, b) => a.y1 - b.y1)[0]!;
    expect(Math.abs(top.x1 - 120 * k)).toBeLessThanOrEqual(4);
    expect(Math.abs(top.y1 - 260 * k)).toBeLessThanOrEqual(4);
    const tables = detectTables(page, page.lines).tables;
    expect(tables).toHaveLength(1);
    expect(RULED_CELLS.map((row, r) => row.map((_, c) => tables[0]!.grid.cells.find((x) => x.row === r && x.col === c)?.text))).toEqual(RULED_CELLS);
    tables[0]!.grid.bbox.forEach((v, i) => expect(Math.abs(v - truth.table!.bbox[i]! * k)).toBeLessThanOrEqual(6));
  });
});
