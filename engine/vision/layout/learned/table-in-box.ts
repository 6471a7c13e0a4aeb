import { bboxUnion, type BBox } from '../../../core/geometry.js';
import type { Page, RuleLine, TableGrid, TextLine } from '../../../core/page.js';
import { columnBands, gridFromRows, groupRows } from '../../table/borderless-table.js';
import { detectTables } from '../../table/detect-tables.js';
import { splitLineIntoPieces } from '../../table/text-pieces.js';

function ruleInside(r: RuleLine, box: BBox, tol: number): boolean {
  return Math.min(r.x1, r.x2) >= box[0] - tol && Math.max(r.x1, r.x2) <= box[2] + tol && Math.min(r.y1, r.y2) >= box[1] - tol && Math.max(r.y1, r.y2) <= box[3] + tol;
}

/**
 * The cell structure of a region a layout model called a table: the table recognition of vision/table run on the
 * lines and ruling lines inside the box (ruled grid, then aligned text); when it finds no table covering the
 * lines (the model is sure, the rules are stricter), rows and column bands of the text pieces are taken as they
 * fall (one column when nothing lines up).
 */
export function tableInBox(page: Page, lines: readonly TextLine[], box: BBox): TableGrid | null {
  const content = lines.filter((l) => l.text.trim() !== '');
  if (content.length === 0) return null;
  const tol = Math.max(3, page.width / 400);
  const area = bboxUnion([box, ...content.map((l) => l.bbox)]);
  const sub: Page = { ...page, lines: content, rules: page.rules.filter((r) => ruleInside(r, area, tol)), images: [] };
  const { tables } = detectTables(sub, content);
  const best = [...tables].sort((a, b) => b.lines.length - a.lines.length)[0];
  if (best && best.lines.length >= 0.8 * content.length) return { ...best.grid, bbox: bboxUnion([box, best.grid.bbox]) };
  const rows = groupRows(content.flatMap(splitLineIntoPieces));
  let bands = columnBands(rows);
  if (bands.length === 0) bands = [[area[0], area[2]]];
  return gridFromRows(rows, bands, area);
}
