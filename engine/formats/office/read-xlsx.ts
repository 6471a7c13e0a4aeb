import type { Page } from '../../core/page.js';
import { DocError } from '../../core/errors.js';
import type { SafeZip } from './safe-zip.js';
import { A4_WIDTH, layoutFlow, textWidth, type FlowBlock, type FlowTable } from './flow-layout.js';
import { attr, child, children, childrenNamed, localName, parseRels, parseXml, relId, root, textNode, type XNode } from './ooxml-xml.js';

/** Cells beyond these bounds are left out (a sheet may declare a million rows of nothing). */
const MAX_ROWS = 20_000;
const MAX_COLS = 200;
const MAX_PAGE_WIDTH = 4000;
/** Filled cells read from one workbook: beyond this a table lays out to millions of lines (minutes, gigabytes). */
export const MAX_WORKBOOK_CELLS = 250_000;

function textOfStringItem(si: XNode): string {
  // Plain <t>, or rich text runs <r><t>; phonetic hints <rPh> are not part of the value.
  let s = '';
  for (const c of children(si)) {
    const name = localName(c);
    if (name === 't') s += children(c).map((x) => textNode(x) ?? '').join('');
    else if (name === 'r') for (const t of childrenNamed(c, 't')) s += children(t).map((x) => textNode(x) ?? '').join('');
  }
  return s;
}

function readSharedStrings(zip: SafeZip): string[] {
  const xml = zip.readText('xl/sharedStrings.xml');
  if (!xml) return [];
  const sst = root(parseXml(xml, 'xl/sharedStrings.xml'), 'sst');
  return sst ? childrenNamed(sst, 'si').map(textOfStringItem) : [];
}

/** "BC12" -> [row 11, col 54] (0-based). */
export function parseCellRef(ref: string): [number, number] | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)$/i.exec(ref);
  if (!m) return null;
  let col = 0;
  for (const ch of m[1]!.toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return [Number(m[2]) - 1, col - 1];
}

function formatNumber(v: string): string {
  const n = Number(v);
  if (!Number.isFinite(n) || v.trim() === '') return v;
  // Binary floating noise (0.30000000000000004) is not what the sheet shows.
  return String(Number(n.toPrecision(15)));
}

function cellValue(c: XNode, shared: string[]): string {
  const t = attr(c, 't');
  const v = child(c, 'v');
  const raw = v ? children(v).map((x) => textNode(x) ?? '').join('') : '';
  switch (t) {
    case 's':
      return shared[Number(raw)] ?? '';
    case 'inlineStr': {
      const is = child(c, 'is');
      return is ? textOfStringItem(is) : '';
    }
    case 'b':
      return raw === '1' ? 'TRUE' : 'FALSE';
    case 'str':
    case 'e':
      return raw;
    default:
      return formatNumber(raw);
  }
}

/**
 * Workbooks (XLSX, XLSM, XLTM): each visible sheet becomes a Title (the sheet name) and a Table of
 * its used range, merged cells kept, starting on a new page; wide sheets get wider pages.
 */
export function readXlsx(zip: SafeZip): Page[] {
  const wbXml = zip.readText('xl/workbook.xml');
  if (!wbXml) throw new DocError('INVALID_DOCUMENT', 'the workbook has no xl/workbook.xml part');
  const wb = root(parseXml(wbXml, 'xl/workbook.xml'), 'workbook');
  const rels = parseRels(zip.readText('xl/_rels/workbook.xml.rels'), 'xl', 'xl/_rels/workbook.xml.rels');
  const shared = readSharedStrings(zip);
  const sheets = wb ? childrenNamed(child(wb, 'sheets') ?? {}, 'sheet') : [];
  if (sheets.length === 0) throw new DocError('INVALID_DOCUMENT', 'the workbook has no sheets');
  const pages: Page[] = [];
  const budget = { cells: MAX_WORKBOOK_CELLS };
  for (const sheet of sheets) {
    if (attr(sheet, 'state') === 'hidden' || attr(sheet, 'state') === 'veryHidden') continue;
    const name = attr(sheet, 'name') ?? 'Sheet';
    const target = rels.get(relId(sheet) ?? '');
    const xml = target ? zip.readText(target) : null;
    if (!xml) continue;
    const table = readSheetTable(parseXml(xml, target!), shared, budget);
    const blocks: FlowBlock[] = [{ kind: 'heading', text: name, level: 1 }];
    if (table) blocks.push({ kind: 'table', table });
    const width = table ? estimateWidth(table) : A4_WIDTH;
    for (const p of layoutFlow(blocks, { pageWidth: width })) {
      p.pageNumber = pages.length + 1;
      pages.push(p);
    }
  }
  if (pages.length === 0) throw new DocError('INVALID_DOCUMENT', 'the workbook has no visible sheets');
  return pages;
}

function estimateWidth(t: FlowTable): number {
  const widths = new Array<number>(t.cols).fill(60);
  for (const c of t.cells) if (c.colSpan === 1) widths[c.col] = Math.max(widths[c.col]!, Math.min(textWidth(c.text, 20), 500) + 16);
  return Math.min(MAX_PAGE_WIDTH, widths.reduce((a, b) => a + b, 0) + 288);
}

function readSheetTable(nodes: XNode[], shared: string[], budget: { cells: number }): FlowTable | null {
  const ws = root(nodes, 'worksheet');
  const data = ws ? child(ws, 'sheetData') : undefined;
  if (!ws || !data) return null;
  const values = new Map<string, { row: number; col: number; text: string }>();
  let rowIndex = -1;
  for (const row of childrenNamed(data, 'row')) {
    const rAttr = attr(row, 'r');
    rowIndex = rAttr ? Number(rAttr) - 1 : rowIndex + 1;
    if (rowIndex >= MAX_ROWS) break;
    let colIndex = -1;
    for (const c of childrenNamed(row, 'c')) {
      const ref = attr(c, 'r');
      const pos = ref ? parseCellRef(ref) : null;
      colIndex = pos ? pos[1] : colIndex + 1;
      if (colIndex >= MAX_COLS) continue;
      const text = cellValue(c, shared);
      if (!text.trim()) continue;
      if (--budget.cells < 0) {
        throw new DocError('INVALID_DOCUMENT', `the workbook has more than ${MAX_WORKBOOK_CELLS.toLocaleString('en-US')} filled cells; at most that many are read`);
      }
      values.set(`${rowIndex}:${colIndex}`, { row: rowIndex, col: colIndex, text });
    }
  }
  const merges: { r0: number; c0: number; r1: number; c1: number }[] = [];
  for (const m of childrenNamed(child(ws, 'mergeCells') ?? {}, 'mergeCell')) {
    const [a, b] = (attr(m, 'ref') ?? '').split(':');
    const p = a ? parseCellRef(a) : null;
    const q = b ? parseCellRef(b) : p;
    if (p && q && p[0] < MAX_ROWS && p[1] < MAX_COLS) merges.push({ r0: p[0], c0: p[1], r1: Math.min(q[0], MAX_ROWS - 1), c1: Math.min(q[1], MAX_COLS - 1) });
  }
  if (values.size === 0) return null;
  // The used range: the bounding box of non-empty cells (and merges touching them).
  let minR = Infinity;
  let minC = Infinity;
  let maxR = -1;
  let maxC = -1;
  for (const v of values.values()) {
    minR = Math.min(minR, v.row);
    minC = Math.min(minC, v.col);
    maxR = Math.max(maxR, v.row);
    maxC = Math.max(maxC, v.col);
  }
  const covered = new Set<string>();
  const cells: FlowTable['cells'] = [];
  for (const m of merges) {
    if (m.r0 > maxR || m.c0 > maxC || m.r1 < minR || m.c1 < minC) continue;
    const r0 = Math.max(m.r0, minR);
    const c0 = Math.max(m.c0, minC);
    const r1 = Math.min(m.r1, maxR);
    const c1 = Math.min(m.c1, maxC);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) covered.add(`${r}:${c}`);
    cells.push({ row: r0 - minR, col: c0 - minC, rowSpan: r1 - r0 + 1, colSpan: c1 - c0 + 1, text: values.get(`${m.r0}:${m.c0}`)?.text ?? '' });
  }
  for (const v of values.values()) {
    if (covered.has(`${v.row}:${v.col}`)) continue;
    cells.push({ row: v.row - minR, col: v.col - minC, rowSpan: 1, colSpan: 1, text: v.text });
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  return { rows: maxR - minR + 1, cols: maxC - minC + 1, cells };
}
