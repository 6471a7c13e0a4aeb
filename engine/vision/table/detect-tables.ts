import { bboxArea, bboxIntersection, type BBox } from '../../core/geometry.js';
import type { Page, RuleLine, TableGrid, TextLine } from '../../core/page.js';
import { columnBands, findBorderlessTables, gridFromRows, groupRows } from './borderless-table.js';
import { findRuledAreas, gridCells } from './ruled-table.js';
import { centerInside, runPieces, splitLineIntoPieces, type TextPiece } from './text-pieces.js';
import { captionKind } from '../layout/heading-rules.js';

export interface DetectedTable {
  grid: TableGrid;
  /** The page's text lines that the table holds. */
  lines: TextLine[];
}

export interface TableDetection {
  tables: DetectedTable[];
  /** Ruled areas that are not tables but dense graphics (charts, diagrams drawn with vector lines). */
  graphics: BBox[];
}

function ruleBox(r: RuleLine): BBox {
  return [Math.min(r.x1, r.x2), Math.min(r.y1, r.y2), Math.max(r.x1, r.x2), Math.max(r.y1, r.y2)];
}

function filledShare(grid: TableGrid): number {
  if (grid.cells.length === 0) return 0;
  return grid.cells.filter((c) => c.text !== '').length / grid.cells.length;
}

/** Ruled tables from the page's rules, then borderless tables from aligned text among the lines left. */
export function detectTables(page: Page, lines: readonly TextLine[]): TableDetection {
  const tol = Math.max(3, page.width / 400);
  const tables: DetectedTable[] = [];
  const graphics: BBox[] = [];
  const used = new Set<TextLine>();
  for (const area of findRuledAreas(page.rules, page.width, page.height)) {
    if (area.xs) {
      const inside = lines.filter((l) => !used.has(l) && centerInside(l.bbox, area.bbox, tol));
      let grid = gridCells({ ...area, xs: area.xs }, runPieces(inside), tol);
      // A frame around a picture (a photo with its caption, a boxed chart) is no table; a grid whose cells
      // mostly hold text is one, even where shading made part of it look like a picture.
      const picture = page.images.some((im) => bboxIntersection(im.bbox, area.bbox) > 0.3 * bboxArea(area.bbox));
      if (!grid || grid.rows < 2 || filledShare(grid) < (picture ? 0.6 : 0.3)) {
        // Many strokes and little text: a drawing (a chart, or a block diagram in a frame with its boxes inside).
        const strokes = Math.max(area.h.length + area.v.length, page.rules.filter((r) => centerInside(ruleBox(r), area.bbox, tol)).length);
        if (strokes >= 8 && inside.length < strokes) graphics.push(area.bbox);
        grid = null;
      }
      if (grid) {
        for (const l of inside) used.add(l);
        tables.push({ grid, lines: inside });
      }
      continue;
    }
    for (const box of tabularStretches(area.bbox, area.ys, lines.filter((l) => !used.has(l)), page.images.map((im) => im.bbox), tol)) {
      const inside = lines.filter((l) => !used.has(l) && centerInside(l.bbox, box, tol));
      if (inside.length < 2) continue;
      const rows = groupRows(inside.flatMap(splitLineIntoPieces));
      const bands = columnBands(rows);
      const multi = rows.filter((r) => r.pieces.length >= 2).length;
      // A sentence across the stretch (a question over its answer choices, a note) wants more rows of cells.
      const sentence = rows.some((r) => r.pieces.length === 1 && r.pieces[0]!.bbox[2] - r.pieces[0]!.bbox[0] > 0.6 * (box[2] - box[0]));
      if (rows.length >= 2 && bands.length >= 2 && multi >= Math.max(sentence ? 3 : 2, 0.5 * rows.length) && !isProse(rows, box)) {
        for (const l of inside) used.add(l);
        tables.push({ grid: gridFromRows(rows, bands, box), lines: inside });
      }
    }
  }
  let rest = lines.filter((l) => !used.has(l));
  for (const t of captionedTables(rest, page.width)) {
    for (const l of t.lines) used.add(l);
    tables.push(t);
  }
  rest = lines.filter((l) => !used.has(l));
  const pieces: TextPiece[] = rest.flatMap(splitLineIntoPieces);
  for (const t of findBorderlessTables(pieces)) {
    const tableLines = [...new Set(t.pieces.map((p) => originalLine(p, rest)))];
    tables.push({ grid: t.grid, lines: tableLines });
  }
  return { tables, graphics };
}

/**
 * Rules stacked one above the other (no vertical rules) may hold prose between some of them (a page's header
 * rule, a boxed note), a picture, or a lone heading (rules under the section headings of a column), and a
 * table between others. The stretches between rules that hold none of these, joined where they touch, are
 * the places a table can be.
 */
function tabularStretches(box: BBox, ys: readonly number[], lines: readonly TextLine[], pictures: readonly BBox[], tol: number): BBox[] {
  const out: BBox[] = [];
  let start: number | null = null;
  for (let i = 0; i + 1 < ys.length; i++) {
    const band: BBox = [box[0], ys[i]!, box[2], ys[i + 1]!];
    const rows = groupRows(lines.filter((l) => centerInside(l.bbox, band, tol)).flatMap(splitLineIntoPieces));
    const wide = rows.filter((r) => r.pieces.some((p) => p.bbox[2] - p.bbox[0] > 0.55 * (box[2] - box[0]))).length;
    const prose = wide >= 2 && wide >= 0.4 * rows.length;
    const heading = rows.length === 1 && rows[0]!.pieces.length === 1;
    const picture = pictures.some((p) => bboxIntersection(p, band) > 0.3 * bboxArea(p));
    if (prose || heading || picture) {
      if (start !== null && i > start) out.push([box[0], ys[start]!, box[2], ys[i]!]);
      start = null;
    } else if (start === null) start = i;
  }
  if (start !== null && start < ys.length - 1) out.push([box[0], ys[start]!, box[2], ys[ys.length - 1]!]);
  return out;
}

/**
 * Rows of prose between two rules (a boxed note, text between a page's header and footer rules): the typical
 * piece is a long stretch of words, where table cells are short.
 */
function isProse(rows: readonly { pieces: TextPiece[] }[], box: BBox): boolean {
  const widths = rows.flatMap((r) => r.pieces.map((p) => p.bbox[2] - p.bbox[0])).sort((a, b) => a - b);
  return widths[Math.floor(widths.length / 2)]! > 0.42 * (box[2] - box[0]);
}

function originalLine(p: TextPiece, lines: readonly TextLine[]): TextLine {
  if (lines.includes(p.line)) return p.line;
  return lines.find((l) => l.runs.some((r) => p.line.runs.includes(r))) ?? p.line;
}

/**
 * A "Table n" caption announces a table: the rows right under it (or, failing that, right above it) whose
 * pieces are all short and line up in two or more columns are that table, even when no cell holds a number.
 */
function captionedTables(lines: readonly TextLine[], pageWidth: number): DetectedTable[] {
  const out: DetectedTable[] = [];
  const taken = new Set<TextLine>();
  for (const cap of lines.filter((l) => captionKind(l.text) === 'table')) {
    const h = cap.bbox[3] - cap.bbox[1];
    const below = lines.filter((l) => l !== cap && !taken.has(l) && l.bbox[1] >= cap.bbox[3] - 2 && l.bbox[2] > cap.bbox[0] - pageWidth * 0.02);
    const rows = groupRows(below.flatMap(splitLineIntoPieces));
    const picked: typeof rows = [];
    let lastBottom = cap.bbox[3];
    for (const r of rows) {
      const rh = r.y2 - r.y1;
      if (r.y1 - lastBottom > 2.2 * Math.max(rh, h * 0.8)) break;
      // A line of prose (many words over a good part of the page) ends the table.
      const prose = (p: TextPiece): boolean => p.bbox[2] - p.bbox[0] > 0.45 * pageWidth || (p.bbox[2] - p.bbox[0] > 0.28 * pageWidth && (p.text.split(/\s+/).length >= 6 || [...p.text].length >= 16));
      if (r.pieces.some(prose)) break;
      picked.push(r);
      lastBottom = r.y2;
    }
    if (picked.length < 3 || picked.filter((r) => r.pieces.length >= 2).length < 2) continue;
    // A caption centred over a wide table starts right of the table's first columns: short lines beside the
    // rows picked, with no prose among them, are those columns.
    const pickedLines = new Set(picked.flatMap((r) => r.pieces.map((p) => p.line)));
    const x1 = Math.min(...picked.flatMap((r) => r.pieces.map((p) => p.bbox[0])));
    const side = lines.filter((l) => {
      if (l === cap || taken.has(l) || pickedLines.has(l) || l.runs.some((r) => [...pickedLines].some((pl) => pl.runs.includes(r)))) return false;
      const cy = (l.bbox[1] + l.bbox[3]) / 2;
      return cy > cap.bbox[3] && cy < lastBottom && l.bbox[2] <= x1 + 2 && x1 - l.bbox[2] < pageWidth * 0.12;
    });
    if (side.length && !side.some((l) => l.bbox[2] - l.bbox[0] > 0.28 * pageWidth)) {
      const all = groupRows([...picked.flatMap((r) => r.pieces), ...side.flatMap(splitLineIntoPieces)]);
      picked.splice(0, picked.length, ...all);
      below.push(...side.filter((l) => !below.includes(l)));
    }
    const bands = columnBands(picked);
    if (bands.length < 2) continue;
    const grid = gridFromRows(picked, bands);
    const tableLines = [...new Set(picked.flatMap((r) => r.pieces.map((p) => p.line)))].map((pl) => below.find((l) => l === pl || l.runs.some((r) => pl.runs.includes(r))) ?? pl);
    for (const l of tableLines) taken.add(l);
    out.push({ grid, lines: tableLines });
  }
  return out;
}
