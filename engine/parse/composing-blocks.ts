import { roundBBox } from '../core/geometry.js';
import type { ComposingBlock, TableCellOut } from '../core/results.js';
import type { PagedCell } from './merge-continuations.js';
import type { ParsedRegion } from './parse-pages.js';

export function composingBlock(r: ParsedRegion): ComposingBlock {
  return {
    system: 'PixelSpace',
    coordinates: roundBBox(r.bbox),
    page_number: r.pageNumber,
    layout_width: Math.round(r.pageWidth),
    layout_height: Math.round(r.pageHeight),
  };
}

export function cellsOut(cells: readonly PagedCell[]): TableCellOut[] {
  return cells.map((c) => ({
    row: c.row,
    col: c.col,
    row_span: c.rowSpan,
    col_span: c.colSpan,
    text: c.text,
    box: roundBBox(c.bbox),
    page_number: c.pageNumber,
  }));
}
