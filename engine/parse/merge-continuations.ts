import type { TableCell, TableGrid } from '../core/page.js';
import type { NodeType } from '../core/results.js';
import { isCjk } from '../core/text.js';
import { startsListItem } from '../vision/layout/heading-rules.js';
import { endsCjk, startsCjk } from '../vision/layout/group-paragraphs.js';
import type { ParsedRegion } from './parse-pages.js';
import { tableText } from './table-text.js';

/** Cells of a table that may run over several pages. */
export interface PagedCell extends TableCell {
  pageNumber: number;
}

/** A unit of content after continuation merging: one paragraph, title, table or figure, from one or more regions. */
export interface DocItem {
  type: NodeType;
  parts: ParsedRegion[];
  text: string;
  level?: number;
  cells?: PagedCell[];
  rows?: number;
  cols?: number;
  caption: string;
  note: string;
}

function joinParagraphs(a: string, b: string): string {
  if (/[a-z]-$/.test(a) && /^[a-z]/.test(b)) return a.slice(0, -1) + b;
  if (a && b && endsCjk(a) && startsCjk(b)) return a + b;
  return `${a} ${b}`;
}

/** Text that stops mid-sentence and text that continues one: the two halves of a paragraph cut by a page break. */
function continues(prev: ParsedRegion, cur: ParsedRegion, prevItem: DocItem): boolean {
  if (prev.type !== 'Text' || cur.type !== 'Text' || prevItem.type !== 'Text') return false;
  const nextPage = cur.pageNumber === prev.pageNumber + 1;
  // Only a page break joins two regions: halves of a paragraph split by a column on one page stay two nodes,
  // each with its own box (a union box across a gutter would cover the other column's text).
  if (!nextPage) return false;
  const a = prev.text.trim();
  const b = cur.text.trim();
  if (!a || !b) return false;
  if (/[.。!！?？:：;；"”』」)）]$/.test(a)) return false;
  if (startsListItem(b)) return false;
  if (prev.fontSize && cur.fontSize && Math.abs(prev.fontSize - cur.fontSize) > 0.12 * Math.max(prev.fontSize, cur.fontSize)) return false;
  // A continuation starts in lower case, with a digit or punctuation, or in CJK.
  return /^[\p{Ll}\d,;:)\]\u3400-\u9fff]/u.test(b) || /[,，、\-–(]$/.test(a);
}

function cellsOf(r: ParsedRegion): PagedCell[] {
  return (r.table?.cells ?? []).map((c) => ({ ...c, pageNumber: r.pageNumber }));
}

function rowTexts(cells: readonly PagedCell[], row: number): string {
  return cells
    .filter((c) => c.row === row)
    .sort((a, b) => a.col - b.col)
    .map((c) => c.text.replace(/\s+/g, ''))
    .join('|');
}

/** Column boundaries relative to the table's own left edge and width. */
function colGeometry(grid: TableGrid): number[] {
  const w = Math.max(1, grid.bbox[2] - grid.bbox[0]);
  const xs = new Set<number>();
  for (const c of grid.cells) if (c.colSpan === 1) xs.add(Math.round(((c.bbox[0] - grid.bbox[0]) / w) * 100));
  return [...xs].sort((a, b) => a - b);
}

/** A table that goes on at the top of the next page: same columns, and a repeated header row or the same column geometry. */
function tableContinues(prevItem: DocItem, prev: ParsedRegion, cur: ParsedRegion): boolean {
  if (prevItem.type !== 'Table' || cur.type !== 'Table' || !prev.table || !cur.table) return false;
  if (cur.pageNumber !== prev.pageNumber + 1 || cur.table.cols !== prevItem.cols) return false;
  if (rowTexts(prevItem.cells ?? [], 0) === rowTexts(cellsOf(cur), 0) && rowTexts(cellsOf(cur), 0) !== '') return true;
  const a = colGeometry(prev.table);
  const b = colGeometry(cur.table);
  const widthRatio = (cur.table.bbox[2] - cur.table.bbox[0]) / Math.max(1, prev.table.bbox[2] - prev.table.bbox[0]);
  return a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) <= 3) && Math.abs(widthRatio - 1) < 0.05 && Math.abs(cur.table.bbox[0] - prev.table.bbox[0]) < 0.03 * cur.pageWidth;
}

function appendTable(item: DocItem, cur: ParsedRegion): void {
  const prevCells = item.cells ?? [];
  let add = cellsOf(cur);
  if (rowTexts(prevCells, 0) === rowTexts(add, 0)) add = add.filter((c) => c.row > 0).map((c) => ({ ...c, row: c.row - 1 }));
  const offset = item.rows ?? 0;
  item.cells = [...prevCells, ...add.map((c) => ({ ...c, row: c.row + offset }))];
  item.rows = offset + Math.max(0, ...add.map((c) => c.row + c.rowSpan));
  item.text = tableText({ bbox: cur.bbox, rows: item.rows, cols: item.cols ?? 0, cells: item.cells });
  item.parts.push(cur);
  if (cur.note) item.note = [item.note, cur.note].filter(Boolean).join(' ');
}

function itemOf(r: ParsedRegion): DocItem {
  const item: DocItem = { type: r.type, parts: [r], text: r.text, caption: r.caption, note: r.note };
  if (r.level !== undefined) item.level = r.level;
  if (r.table) {
    item.cells = cellsOf(r);
    item.rows = r.table.rows;
    item.cols = r.table.cols;
  }
  return item;
}

/**
 * Regions in reading order into items: a paragraph cut by a column or page break is joined again, and a table
 * that runs on over a page break becomes one table (the repeated header row dropped).
 */
export function mergeContinuations(regions: readonly ParsedRegion[]): DocItem[] {
  const items: DocItem[] = [];
  for (const r of regions) {
    const last = items[items.length - 1];
    const prev = last?.parts[last.parts.length - 1];
    if (last && prev && continues(prev, r, last)) {
      last.text = joinParagraphs(last.text, r.text);
      last.parts.push(r);
    } else if (last && prev && tableContinues(last, prev, r)) {
      appendTable(last, r);
    } else items.push(itemOf(r));
  }
  return items;
}
