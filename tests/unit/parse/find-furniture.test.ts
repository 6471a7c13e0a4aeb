import { describe, expect, it } from 'vitest';
import type { BBox } from '../../../engine/core/geometry.js';
import type { Page, TextLine } from '../../../engine/core/page.js';
import { findFurniture } from '../../../engine/parse/find-furniture.js';

function ocrLine(text: string, bbox: BBox): TextLine {
  return { text, bbox, runs: [{ text, bbox, fontSize: bbox[3] - bbox[1] }], fontSize: bbox[3] - bbox[1], bold: false, source: 'ocr', confidence: 0.95 };
}

function page(lines: TextLine[]): Page {
  return { pageNumber: 1, width: 600, height: 800, lines, rules: [], images: [], ocr: true, rotation: 0 };
}

/** Two columns of body lines, 12 px tall every 14 px, from y to the page foot. */
function columns(y: number, rows: number): TextLine[] {
  return Array.from({ length: rows }, (_, i) => [
    ocrLine(`left column body text row ${i}`, [50, y + 14 * i, 290, y + 12 + 14 * i]),
    ocrLine(`right column body text row ${i}`, [310, y + 14 * i, 550, y + 12 + 14 * i]),
  ]).flat();
}

describe('findFurniture on a single page', () => {
  it('takes a two-line running head set apart at the top, and a journal line at the foot', () => {
    const head = [ocrLine('Author et al. 2017 Title of the paper', [176, 24, 498, 36]), ocrLine('Journal of Examples 17(2): 13', [176, 40, 533, 52])];
    const foot = ocrLine('Journal of Examples 2017', [50, 770, 200, 782]);
    const found = findFurniture([page([...head, ...columns(100, 40), foot])]);
    expect([...found.values()].map((f) => [f.kind, f.text])).toEqual([
      ['header', 'Author et al. 2017 Title of the paper'],
      ['header', 'Journal of Examples 17(2): 13'],
      ['footer', 'Journal of Examples 2017'],
    ]);
  });

  it('leaves body lines that run down to the foot of a newspaper page alone', () => {
    const found = findFurniture([page(columns(30, 55))]);
    expect(found.size).toBe(0);
  });
});
