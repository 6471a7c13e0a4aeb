import { bboxUnion, type BBox } from '../../core/geometry.js';
import type { TableCell, TableGrid } from '../../core/page.js';
import { cellText, isNumericText, type TextPiece } from './text-pieces.js';

export interface PieceRow {
  pieces: TextPiece[];
  y1: number;
  y2: number;
}

/** Pieces grouped into rows by vertical overlap, top to bottom; pieces in a row left to right. */
export function groupRows(pieces: readonly TextPiece[]): PieceRow[] {
  const sorted = [...pieces].sort((a, b) => (a.bbox[1] + a.bbox[3]) / 2 - (b.bbox[1] + b.bbox[3]) / 2);
  const rows: PieceRow[] = [];
  for (const p of sorted) {
    const row = rows[rows.length - 1];
    const h = p.bbox[3] - p.bbox[1];
    if (row) {
      const overlap = Math.min(row.y2, p.bbox[3]) - Math.max(row.y1, p.bbox[1]);
      if (overlap > 0.5 * Math.min(h, row.y2 - row.y1)) {
        row.pieces.push(p);
        row.y1 = Math.min(row.y1, p.bbox[1]);
        row.y2 = Math.max(row.y2, p.bbox[3]);
        continue;
      }
    }
    rows.push({ pieces: [p], y1: p.bbox[1], y2: p.bbox[3] });
  }
  for (const r of rows) r.pieces.sort((a, b) => a.bbox[0] - b.bbox[0]);
  return rows;
}

/** Column bands: x-intervals of the pieces of the rows with the most common (>= 2) piece count, merged. */
export function columnBands(rows: readonly PieceRow[]): [number, number][] {
  const counts = new Map<number, number>();
  for (const r of rows) if (r.pieces.length >= 2) counts.set(r.pieces.length, (counts.get(r.pieces.length) ?? 0) + 1);
  if (counts.size === 0) return [];
  // The body rows: the largest piece count that at least a third of the multi-piece rows share.
  const multi = [...counts.values()].reduce((a, b) => a + b, 0);
  const bodyCount = [...counts.entries()].filter(([, n]) => n >= Math.max(2, multi / 3)).map(([k]) => k).sort((a, b) => b - a)[0]
    ?? [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  const intervals: [number, number][] = [];
  for (const r of rows) if (r.pieces.length === bodyCount) for (const p of r.pieces) intervals.push([p.bbox[0], p.bbox[2]]);
  intervals.sort((a, b) => a[0] - b[0]);
  const bands: [number, number][] = [];
  for (const iv of intervals) {
    const last = bands[bands.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else bands.push([iv[0], iv[1]]);
  }
  return bands;
}

/** A table grid from rows of pieces and column bands; a piece over several bands spans them. */
export function gridFromRows(rows: readonly PieceRow[], bands: readonly [number, number][], bbox?: BBox): TableGrid {
  const cells: TableCell[] = [];
  const cols = bands.length;
  const ys: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const prev = rows[i - 1];
    ys.push(prev ? (prev.y2 + rows[i]!.y1) / 2 : rows[i]!.y1);
  }
  ys.push(rows[rows.length - 1]!.y2);
  const xs: number[] = [bands[0]![0]];
  for (let c = 1; c < cols; c++) xs.push((bands[c - 1]![1] + bands[c]![0]) / 2);
  xs.push(bands[cols - 1]![1]);
  rows.forEach((row, r) => {
    const slots: TextPiece[][] = Array.from({ length: cols }, () => []);
    const spanOf = new Map<number, number>();
    for (const p of row.pieces) {
      const hit: number[] = [];
      bands.forEach((b, c) => {
        const ov = Math.min(b[1], p.bbox[2]) - Math.max(b[0], p.bbox[0]);
        if (ov > 0.15 * Math.min(b[1] - b[0], p.bbox[2] - p.bbox[0]) || (ov >= 0 && b[1] - b[0] < 1)) hit.push(c);
      });
      if (hit.length === 0) {
        const cx = (p.bbox[0] + p.bbox[2]) / 2;
        let best = 0;
        bands.forEach((b, c) => {
          const d = Math.abs((b[0] + b[1]) / 2 - cx);
          if (d < Math.abs((bands[best]![0] + bands[best]![1]) / 2 - cx)) best = c;
        });
        hit.push(best);
      }
      const first = hit[0]!;
      slots[first]!.push(p);
      spanOf.set(first, Math.max(spanOf.get(first) ?? 1, hit[hit.length - 1]! - first + 1));
    }
    for (let c = 0; c < cols; ) {
      const span = Math.min(spanOf.get(c) ?? 1, cols - c);
      const inCell = slots.slice(c, c + span).flat();
      cells.push({ row: r, col: c, rowSpan: 1, colSpan: span, text: cellText(inCell), bbox: [xs[c]!, ys[r]!, xs[c + span]!, ys[r + 1]!] });
      c += span;
    }
  });
  const box = bbox ?? bboxUnion(rows.flatMap((r) => r.pieces.map((p) => p.bbox)));
  return { bbox: box, rows: rows.length, cols, cells };
}

/**
 * Borderless tables: runs of >= 3 consecutive rows of several pieces whose x-positions line up, with at least
 * one column that is mostly numbers (two columns of prose line up too, but hold no numbers).
 */
export function findBorderlessTables(pieces: readonly TextPiece[]): { grid: TableGrid; pieces: TextPiece[] }[] {
  const rows = groupRows(pieces);
  const out: { grid: TableGrid; pieces: TextPiece[] }[] = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]!.pieces.length < 2) {
      i++;
      continue;
    }
    const run: PieceRow[] = [rows[i]!];
    let j = i + 1;
    while (j < rows.length) {
      const prev = run[run.length - 1]!;
      const row = rows[j]!;
      const lineH = Math.max(prev.y2 - prev.y1, row.y2 - row.y1);
      if (row.y1 - prev.y2 > 2.2 * lineH) break;
      if (row.pieces.length >= 2) {
        run.push(row);
        j++;
        continue;
      }
      // A one-piece row (a row label with no values) continues the table when the next row has several pieces.
      const next = rows[j + 1];
      const leftX = Math.min(...run.map((r) => r.pieces[0]!.bbox[0]));
      const p = row.pieces[0]!;
      const nextOk = next && next.pieces.length >= 2 && next.y1 - row.y2 < 2.2 * lineH;
      const widthOk = p.bbox[2] < Math.min(...run.map((r) => r.pieces[1]?.bbox[0] ?? Infinity));
      if (nextOk && widthOk && Math.abs(p.bbox[0] - leftX) < 3 * p.fontSize) {
        run.push(row);
        j++;
        continue;
      }
      break;
    }
    const accepted = acceptRun(run);
    if (accepted) {
      out.push(accepted);
      i = j;
    } else i++;
  }
  return out;
}

function acceptRun(run: PieceRow[]): { grid: TableGrid; pieces: TextPiece[] } | null {
  const multi = run.filter((r) => r.pieces.length >= 2);
  if (multi.length < 3) return null;
  const bands = columnBands(run);
  if (bands.length < 2) return null;
  const grid = gridFromRows(run, bands);
  let numericCols = 0;
  let numericCells = 0;
  for (let c = 1; c < grid.cols; c++) {
    const texts = grid.cells.filter((x) => x.col === c && x.colSpan === 1 && x.text !== '').map((x) => x.text);
    const num = texts.filter(isNumericText).length;
    if (texts.length >= 2 && num >= 0.6 * texts.length) {
      numericCols++;
      numericCells += num;
    }
  }
  if (numericCols === 0 || numericCells < 3) return null;
  // Prose in two columns: each piece is a long line; table cells are short.
  const widths = run.flatMap((r) => r.pieces.map((p) => p.bbox[2] - p.bbox[0])).sort((a, b) => a - b);
  const tableWidth = grid.bbox[2] - grid.bbox[0];
  if (widths[Math.floor(widths.length / 2)]! > 0.42 * tableWidth) return null;
  return { grid, pieces: run.flatMap((r) => r.pieces) };
}
