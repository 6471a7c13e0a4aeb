import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../../../engine/core/image.js';
import type { Page, RuleLine, TextLine } from '../../../../engine/core/page.js';
import { bboxIoU, type BBox } from '../../../../engine/core/geometry.js';
import { decodeImagePages } from '../../../../engine/formats/image-decode.js';
import { analyseRaster } from '../../../../engine/vision/raster/analyse-raster.js';
import { detectTables } from '../../../../engine/vision/table/detect-tables.js';
import { BORDERLESS_CELLS, DASHED_CELLS, RASTER_FIXTURES, RULED_CELLS, type RasterFixtureTruth } from '../../../fixtures/make-raster.js';

const GEN = join(import.meta.dirname, '../../../fixtures/generated');

function truth(name: string): RasterFixtureTruth {
  return JSON.parse(readFileSync(join(GEN, name.replace(/\.png$/, '.json')), 'utf8')) as RasterFixtureTruth;
}

/** The drawn text as OCR lines would give it: one line per drawn text, its box padded by 3 px. */
function linesOf(t: RasterFixtureTruth): TextLine[] {
  return t.texts.map((d) => {
    const bbox: BBox = [d.bbox[0] - 3, d.bbox[1] - 3, d.bbox[2] + 3, d.bbox[3] + 3];
    const h = bbox[3] - bbox[1];
    return { text: d.text, bbox, runs: [{ text: d.text, bbox, fontSize: h }], fontSize: h, bold: false, source: 'ocr', confidence: 0.95 };
  });
}

async function image(name: string): Promise<RgbaImage> {
  const [img] = await decodeImagePages(join(GEN, name), 'png');
  return img!;
}

const isHorizontal = (r: RuleLine): boolean => Math.abs(r.x2 - r.x1) > Math.abs(r.y2 - r.y1);

function page(t: RasterFixtureTruth, lines: TextLine[], found: ReturnType<typeof analyseRaster>): Page {
  return { pageNumber: 1, width: t.width, height: t.height, lines, rules: found.rules, images: found.images, ocr: true, rotation: 0 };
}

describe('analyseRaster', () => {
  it('finds the rules of a slightly tilted ruled table (1-3 px, one broken by a gap) and no graphics', async () => {
    const t = truth(RASTER_FIXTURES.ruledTable);
    const lines = linesOf(t);
    const found = analyseRaster(await image(RASTER_FIXTURES.ruledTable), lines);
    const inTable = found.rules.filter((r) => Math.min(r.x1, r.x2) >= t.table!.bbox[0] - 6 && Math.max(r.y1, r.y2) <= t.table!.bbox[3] + 6);
    const h = inTable.filter(isHorizontal);
    const v = inTable.filter((r) => !isHorizontal(r));
    expect(h).toHaveLength(5);
    expect(v).toHaveLength(4);
    // Each horizontal rule spans the table (the broken one too) and follows the 0.5 degree tilt.
    for (const r of h) {
      expect(Math.abs(r.x2 - r.x1)).toBeGreaterThan(0.95 * (t.table!.bbox[2] - t.table!.bbox[0]));
      expect(r.y2 - r.y1).toBeGreaterThan(4);
      expect(r.y2 - r.y1).toBeLessThan(13);
    }
    // Top rule drawn from (120, 260): its left end lies within 3 px of that.
    const top = h.sort((a, b) => a.y1 - b.y1)[0]!;
    expect(Math.abs(top.x1 - 120)).toBeLessThanOrEqual(3);
    expect(Math.abs(top.y1 - 260)).toBeLessThanOrEqual(3);
    expect(found.rules).toHaveLength(9);
    expect(found.images).toEqual([]);
  });

  it('gives the ruled table on the scan its exact cells through detectTables', async () => {
    const t = truth(RASTER_FIXTURES.ruledTable);
    const lines = linesOf(t);
    const found = analyseRaster(await image(RASTER_FIXTURES.ruledTable), lines);
    const { tables } = detectTables(page(t, lines, found), lines);
    expect(tables).toHaveLength(1);
    const g = tables[0]!.grid;
    expect([g.rows, g.cols]).toEqual([4, 3]);
    const cells = RULED_CELLS.map((row, r) => row.map((_, c) => g.cells.find((x) => x.row === r && x.col === c)?.text));
    expect(cells).toEqual(RULED_CELLS);
    expect(bboxIoU(g.bbox, t.table!.bbox)).toBeGreaterThan(0.95);
    expect(tables[0]!.lines.some((l) => l.text.startsWith('The survey'))).toBe(false);
  });

  it('finds dashed and dotted rules, none through the tight paragraph above, and the table they make', async () => {
    const t = truth(RASTER_FIXTURES.dashedTable);
    const lines = linesOf(t);
    const found = analyseRaster(await image(RASTER_FIXTURES.dashedTable), lines);
    expect(found.rules.filter(isHorizontal)).toHaveLength(5);
    expect(found.rules.filter((r) => !isHorizontal(r))).toHaveLength(4);
    // Every rule lies on a drawn line: rows at 220/280/340/400/460, columns at 120/460/790/1120.
    for (const r of found.rules) {
      if (isHorizontal(r)) expect(Math.min(...[220, 280, 340, 400, 460].map((y) => Math.abs(r.y1 - y)))).toBeLessThanOrEqual(3);
      else expect(Math.min(...[120, 460, 790, 1120].map((x) => Math.abs(r.x1 - x)))).toBeLessThanOrEqual(3);
    }
    const { tables } = detectTables(page(t, lines, found), lines);
    expect(tables).toHaveLength(1);
    const g = tables[0]!.grid;
    expect([g.rows, g.cols]).toEqual([4, 3]);
    expect(DASHED_CELLS.map((row, r) => row.map((_, c) => g.cells.find((x) => x.row === r && x.col === c)?.text))).toEqual(DASHED_CELLS);
  });

  it('finds a numeric table with no rules and no caption from aligned cells', async () => {
    const t = truth(RASTER_FIXTURES.borderlessTable);
    const lines = linesOf(t);
    const found = analyseRaster(await image(RASTER_FIXTURES.borderlessTable), lines);
    expect(found.rules).toEqual([]);
    expect(found.images).toEqual([]);
    const { tables } = detectTables(page(t, lines, found), lines);
    expect(tables).toHaveLength(1);
    const g = tables[0]!.grid;
    expect([g.rows, g.cols]).toEqual([5, 4]);
    const cells = BORDERLESS_CELLS.map((row, r) => row.map((_, c) => g.cells.find((x) => x.row === r && x.col === c)?.text));
    expect(cells).toEqual(BORDERLESS_CELLS);
    expect(tables[0]!.lines.some((l) => l.text.startsWith('Yields rose'))).toBe(false);
  });

  it('finds a bar chart and a photo beside paragraphs, and not the underline, the speck or the text', async () => {
    const t = truth(RASTER_FIXTURES.figures);
    const lines = linesOf(t);
    const found = analyseRaster(await image(RASTER_FIXTURES.figures), lines);
    expect(found.images).toHaveLength(2);
    const [chart, photo] = t.figures!;
    const boxes = found.images.map((i) => i.bbox);
    const chartHit = boxes.find((b) => bboxIoU(b, chart!) > 0.5)!;
    const photoHit = boxes.find((b) => bboxIoU(b, photo!) > 0.5)!;
    expect(chartHit).toBeDefined();
    expect(photoHit).toBeDefined();
    // The photo's box within 12 px of the drawn block on every side.
    photoHit.forEach((v, i) => expect(Math.abs(v - photo![i]!)).toBeLessThanOrEqual(12));
    // The chart's box holds its bars (x 800..1105, y 140..420) and stays off the text column.
    expect(chartHit[0]).toBeLessThanOrEqual(805);
    expect(chartHit[2]).toBeGreaterThanOrEqual(1100);
    expect(chartHit[3]).toBeGreaterThanOrEqual(415);
    expect(chartHit[0]).toBeGreaterThan(620);
  });

  it('takes the dark table around a photographed page for no graphic', async () => {
    // make-ocr's skewed photo: the page turned 4 degrees on a shaded background; its sidecar gives the text boxes.
    const drawn = JSON.parse(readFileSync(join(GEN, 'ocr-page-skew.json'), 'utf8')) as { lines: { text: string; bbox: BBox }[] };
    const lines = linesOf({ width: 0, height: 0, texts: drawn.lines });
    const [img] = await decodeImagePages(join(GEN, 'ocr-page-skew.jpg'), 'jpg');
    const found = analyseRaster(img!, lines);
    expect(found.images).toEqual([]);
    // The page's edges are tilted 4 degrees: too steep for rules.
    expect(found.rules).toEqual([]);
  });

  it('finds nothing on a blank page, an all-black page or a tiny image', () => {
    const fill = (w: number, h: number, v: number): RgbaImage => ({ width: w, height: h, data: new Uint8ClampedArray(w * h * 4).fill(v) });
    expect(analyseRaster(fill(800, 600, 255), [])).toEqual({ rules: [], images: [] });
    expect(analyseRaster(fill(800, 600, 0), [])).toEqual({ rules: [], images: [] });
    expect(analyseRaster(fill(10, 10, 0), [])).toEqual({ rules: [], images: [] });
  });

  it('analyses a 2500 x 3500 page quickly', async () => {
    const src = await image(RASTER_FIXTURES.ruledTable);
    const big: RgbaImage = { width: 2500, height: 3500, data: new Uint8ClampedArray(2500 * 3500 * 4) };
    for (let y = 0; y < big.height; y++) {
      const sy = y % src.height;
      for (let x = 0; x < big.width; x += src.width) {
        const n = Math.min(src.width, big.width - x);
        big.data.set(src.data.subarray(sy * src.width * 4, (sy * src.width + n) * 4), (y * big.width + x) * 4);
      }
    }
    analyseRaster(big, []);
    const t0 = performance.now();
    const found = analyseRaster(big, []);
    const ms = performance.now() - t0;
    expect(found.rules.length).toBeGreaterThanOrEqual(9);
    // 150 ms on one idle core; the bound leaves room for a loaded test machine.
    expect(ms).toBeLessThan(1000);
  });
});
