import type { BBox } from '../../core/geometry.js';
import type { Page, TableGrid, TextLine } from '../../core/page.js';
import { columnBands, findBorderlessTables, gridFromRows, groupRows } from './borderless-table.js';
import { findRuledAreas, gridCells } from './ruled-table.js';
import { centerInside, runPieces, splitLineIntoPieces, type TextPiece } from './text-pieces.js';

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
  for (const area of findRuledAreas(page.rules, page.width)) {
    const inside = lines.filter((l) => !used.has(l) && centerInside(l.bbox, area.bbox, tol));
    let grid: TableGrid | null = null;
    if (area.xs) {
      grid = gridCells({ ...area, xs: area.xs }, runPieces(inside), tol);
      if (grid && (grid.rows < 2 || filledShare(grid) < 0.3)) {
        if (area.h.length + area.v.length >= 8 && inside.length < area.h.length + area.v.length) graphics.push(area.bbox);
        grid = null;
      }
    } else if (inside.length >= 2) {
      const rows = groupRows(inside.flatMap(splitLineIntoPieces));
      const bands = columnBands(rows);
      if (rows.length >= 2 && bands.length >= 2 && rows.filter((r) => r.pieces.length >= 2).length >= 2) grid = gridFromRows(rows, bands, area.bbox);
    }
    if (grid) {
      for (const l of inside) used.add(l);
      tables.push({ grid, lines: inside });
    }
  }
  const rest = lines.filter((l) => !used.has(l));
  const pieces: TextPiece[] = rest.flatMap(splitLineIntoPieces);
  for (const t of findBorderlessTables(pieces)) {
    const tableLines = [...new Set(t.pieces.map((p) => originalLine(p, rest)))];
    tables.push({ grid: t.grid, lines: tableLines });
  }
  return { tables, graphics };
}

function originalLine(p: TextPiece, lines: readonly TextLine[]): TextLine {
  if (lines.includes(p.line)) return p.line;
  return lines.find((l) => l.runs.some((r) => p.line.runs.includes(r))) ?? p.line;
}
