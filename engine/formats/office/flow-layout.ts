import type { BBox } from '../../core/geometry.js';
import type { Page, RuleLine, SourceBlock, TableCell, TextLine } from '../../core/page.js';
import { DocError } from '../../core/errors.js';
import { isCjk, normalizeText } from '../../core/text.js';

/** The same page limit as a PDF's: a flow document that lays out to more is refused while it is laid out. */
export const MAX_FLOW_PAGES = 5000;

/**
 * Flow documents (word processing, spreadsheets, HTML, text) have no fixed page geometry. They are
 * laid out here on synthetic A4 pages at 144 dpi with estimated glyph widths and line heights, so that
 * every block gets a consistent box and page number in the same PixelSpace as PDF pages.
 */
export type FlowBlock =
  | { kind: 'heading'; text: string; level: number; fontSize?: number }
  /** The page size and margins of the blocks that follow (a Word section); `newPage` starts them on a fresh page. */
  | { kind: 'geometry'; geometry: PageGeometry; newPage: boolean }
  | { kind: 'paragraph'; text: string; bold?: boolean; list?: boolean; fontSize?: number }
  | { kind: 'table'; table: FlowTable; caption?: string }
  | { kind: 'pageBreak' };

export interface FlowTable {
  rows: number;
  cols: number;
  /** Top-left cells of the grid, merged cells carrying their spans; positions not covered are empty. */
  cells: { row: number; col: number; rowSpan: number; colSpan: number; text: string }[];
}

export const A4_WIDTH = 1190;
export const A4_HEIGHT = 1684;
const MARGIN = 144;

/** Page size and margins in page pixels (144 dpi). */
export interface PageGeometry {
  width: number;
  height: number;
  margins: { top: number; right: number; bottom: number; left: number };
}

export const A4_GEOMETRY: PageGeometry = { width: A4_WIDTH, height: A4_HEIGHT, margins: { top: MARGIN, right: MARGIN, bottom: MARGIN, left: MARGIN } };

/** Smallest page (and content width) accepted from a file's own geometry: anything less is treated as damaged. */
const MIN_PAGE = 288;
const MIN_CONTENT = 144;

/** The file's geometry when it is sane, else A4: zero, tiny or negative sizes and margins wider than the page are refused. */
function saneGeometry(g: PageGeometry): PageGeometry {
  const ok = (v: number) => Number.isFinite(v) && v >= 0;
  const { width, height, margins: m } = g;
  if (!ok(width) || !ok(height) || width < MIN_PAGE || height < MIN_PAGE || width > 20_000 || height > 20_000) return A4_GEOMETRY;
  if (![m.top, m.right, m.bottom, m.left].every(ok)) return A4_GEOMETRY;
  if (width - m.left - m.right >= MIN_CONTENT && height - m.top - m.bottom >= MIN_CONTENT) return g;
  // Margins that leave no room for text: the page keeps its size with margins of a quarter inch.
  const q = 36;
  return { width, height, margins: { top: q, right: q, bottom: q, left: q } };
}
const BODY_SIZE = 22; // 11 pt at 144 dpi
const HEADING_SIZES = [40, 32, 28, 26, 24, 22];
const CELL_PAD = 8;
const TABLE_SIZE = 20;

export interface FlowOptions {
  /** Wider pages for wide spreadsheets; the height stays A4. */
  pageWidth?: number;
  /** The document's own first page size and margins (a Word file's section); A4 with 1-inch margins otherwise. */
  geometry?: PageGeometry;
  /** The document's body font size in page pixels (a Word file's default run size). */
  bodySize?: number;
}

/** Estimated advance of one character at `size` px: CJK and full-width glyphs are square, Latin about half. */
function charWidth(ch: string, size: number): number {
  if (isCjk(ch) || /[\uac00-\ud7af\u3040-\u30ff]/.test(ch)) return size;
  if (/[A-Z@%&MW]/.test(ch)) return size * 0.66;
  if (/[ilj.,;:'|!]/.test(ch)) return size * 0.28;
  if (ch === ' ') return size * 0.28;
  return size * 0.52;
}

export function textWidth(text: string, size: number): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch, size);
  return w;
}

/** Greedy wrap: Latin breaks at spaces (long words are cut), CJK between any two characters. */
export function wrapText(text: string, size: number, maxWidth: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    const tokens = para.match(/[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\uac00-\ud7af\u3040-\u30ff]|[^\s\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef\uac00-\ud7af\u3040-\u30ff]+|\s+/g) ?? [];
    let line = '';
    let width = 0;
    for (const tok of tokens) {
      const w = textWidth(tok, size);
      if (/^\s+$/.test(tok)) {
        if (line) {
          line += ' ';
          width += charWidth(' ', size);
        }
        continue;
      }
      if (width + w > maxWidth && line.trim()) {
        out.push(line.trimEnd());
        line = '';
        width = 0;
      }
      if (w > maxWidth) {
        // a single token wider than the line: cut it by characters
        for (const ch of tok) {
          const cw = charWidth(ch, size);
          if (width + cw > maxWidth && line) {
            out.push(line);
            line = '';
            width = 0;
          }
          line += ch;
          width += cw;
        }
        continue;
      }
      line += tok;
      width += w;
    }
    if (line.trim()) out.push(line.trimEnd());
  }
  return out;
}

class PageBuilder {
  readonly pages: Page[] = [];
  private page!: Page;
  y = 0;
  width: number;
  height: number;
  private margins: PageGeometry['margins'];
  constructor(geometry: PageGeometry) {
    this.width = geometry.width;
    this.height = geometry.height;
    this.margins = geometry.margins;
    this.newPage();
  }
  /** Pages started from now on take this size and these margins. */
  setGeometry(geometry: PageGeometry): void {
    this.width = geometry.width;
    this.height = geometry.height;
    this.margins = geometry.margins;
  }
  get top(): number {
    return this.margins.top;
  }
  get bottom(): number {
    return this.height - this.margins.bottom;
  }
  get left(): number {
    return this.margins.left;
  }
  get contentWidth(): number {
    return this.width - this.margins.left - this.margins.right;
  }
  current(): Page {
    return this.page;
  }
  newPage(): void {
    if (this.pages.length >= MAX_FLOW_PAGES) {
      throw new DocError('INVALID_DOCUMENT', `the document lays out to more than ${MAX_FLOW_PAGES.toLocaleString('en-US')} pages; at most ${MAX_FLOW_PAGES.toLocaleString('en-US')} pages are accepted`);
    }
    this.page = { pageNumber: this.pages.length + 1, width: this.width, height: this.height, lines: [], rules: [], images: [], sourceBlocks: [], ocr: false, rotation: 0 };
    this.pages.push(this.page);
    this.y = this.margins.top;
  }
  /** True when the page already holds something (a break then starts a fresh page). */
  used(): boolean {
    return this.page.lines.length > 0 || (this.page.sourceBlocks?.length ?? 0) > 0;
  }
  ensure(h: number): void {
    if (this.y + h > this.bottom && this.used()) this.newPage();
  }
}

function makeLine(text: string, x: number, y: number, size: number, bold: boolean): TextLine {
  const w = Math.min(textWidth(text, size), 100_000);
  const bbox: BBox = [round1(x), round1(y), round1(x + w), round1(y + size * 1.2)];
  return { text, bbox, runs: [{ text, bbox, fontSize: size, bold: bold || undefined }], fontSize: size, bold, source: 'text', confidence: 1 };
}

export function layoutFlow(blocks: readonly FlowBlock[], opts: FlowOptions = {}): Page[] {
  const first = saneGeometry(opts.geometry ?? A4_GEOMETRY);
  const pb = new PageBuilder(opts.geometry ? first : { ...A4_GEOMETRY, width: Math.max(A4_WIDTH, Math.round(opts.pageWidth ?? A4_WIDTH)) });
  const bodySize = opts.bodySize && opts.bodySize >= 8 && opts.bodySize <= 200 ? opts.bodySize : BODY_SIZE;
  for (const block of blocks) {
    if (block.kind === 'pageBreak') {
      if (pb.used()) pb.newPage();
      continue;
    }
    if (block.kind === 'geometry') {
      const g = saneGeometry(block.geometry);
      const resized = g.width !== pb.width || g.height !== pb.height;
      pb.setGeometry(g);
      // A new page size cannot continue the current page; a continuous section with the same size can.
      if ((block.newPage || resized) && pb.used()) pb.newPage();
      else if (!pb.used()) {
        const page = pb.current();
        page.width = g.width;
        page.height = g.height;
        pb.y = Math.max(pb.y, pb.top);
      }
      continue;
    }
    if (block.kind === 'table') {
      layoutTable(pb, block.table);
      continue;
    }
    const text = normalizeText(block.text).trim();
    if (!text) continue;
    const isHeading = block.kind === 'heading';
    const level = isHeading ? Math.min(6, Math.max(1, block.level)) : 0;
    const size = isHeading ? Math.max(HEADING_SIZES[level - 1]!, block.fontSize ?? 0) : block.fontSize ?? bodySize;
    const bold = isHeading || Boolean(block.kind === 'paragraph' && block.bold);
    const lineHeight = Math.round(size * 1.45);
    const indent = block.kind === 'paragraph' && block.list ? 36 : 0;
    const wrapped = wrapText(text, size, pb.contentWidth - indent);
    if (isHeading) {
      pb.y += Math.round(size * 0.5);
      // keep a heading with at least two following lines
      pb.ensure(lineHeight + 2 * Math.round(bodySize * 1.45));
    } else {
      pb.ensure(lineHeight);
    }
    let pieceLines: TextLine[] = [];
    const flush = () => {
      if (!pieceLines.length) return;
      const sb: SourceBlock = {
        type: isHeading ? 'Title' : 'Text',
        text: pieceLines.map((l) => l.text).join(isCjkJoin(pieceLines) ? '' : ' '),
        bbox: unionOf(pieceLines.map((l) => l.bbox)),
      };
      if (isHeading) sb.level = level;
      pb.current().sourceBlocks!.push(sb);
      pieceLines = [];
    };
    for (const t of wrapped) {
      if (pb.y + lineHeight > pb.bottom && pb.used()) {
        flush();
        pb.newPage();
      }
      const line = makeLine(t, pb.left + indent, pb.y, size, bold);
      pb.current().lines.push(line);
      pieceLines.push(line);
      pb.y += lineHeight;
    }
    flush();
    pb.y += Math.round(size * 0.5);
  }
  // A document with no content still has one (empty) page.
  return pb.pages;
}

function isCjkJoin(lines: TextLine[]): boolean {
  return lines.length > 1 && isCjk(lines[0]!.text.slice(-1));
}

function layoutTable(pb: PageBuilder, table: FlowTable): void {
  if (table.rows === 0 || table.cols === 0) return;
  const size = TABLE_SIZE;
  const lineHeight = Math.round(size * 1.35);
  // Column widths follow the longest single-column content, within the content width.
  const want = new Array<number>(table.cols).fill(40);
  for (const c of table.cells) {
    if (c.colSpan !== 1) continue;
    const longest = Math.max(0, ...c.text.split('\n').map((t) => textWidth(t, size)));
    want[c.col] = Math.max(want[c.col]!, Math.min(longest, 600) + 2 * CELL_PAD + 6);
  }
  const total = want.reduce((a, b) => a + b, 0);
  const avail = pb.contentWidth;
  const widths = want.map((w) => (total > avail ? Math.max(24, (w / total) * avail) : w));
  const xs = [pb.left];
  for (const w of widths) xs.push(xs[xs.length - 1]! + w);

  // Wrapped text and the height each row needs.
  const wrappedOf = new Map<(typeof table.cells)[number], string[]>();
  const rowHeight = new Array<number>(table.rows).fill(lineHeight + 2 * CELL_PAD);
  for (const c of table.cells) {
    const w = xs[Math.min(table.cols, c.col + c.colSpan)]! - xs[c.col]! - 2 * CELL_PAD;
    const lines = wrapText(normalizeText(c.text), size, Math.max(w, size));
    wrappedOf.set(c, lines);
    if (c.rowSpan === 1) rowHeight[c.row] = Math.max(rowHeight[c.row]!, Math.max(1, lines.length) * lineHeight + 2 * CELL_PAD);
  }
  for (const c of table.cells) {
    if (c.rowSpan <= 1) continue;
    const need = Math.max(1, wrappedOf.get(c)!.length) * lineHeight + 2 * CELL_PAD;
    const last = Math.min(table.rows, c.row + c.rowSpan) - 1;
    let have = 0;
    for (let r = c.row; r <= last; r++) have += rowHeight[r]!;
    if (need > have) rowHeight[last] = rowHeight[last]! + need - have;
  }

  // Rows go onto pages; a table running past the page bottom continues on the next page as its own piece.
  pb.ensure(Math.min(rowHeight[0]!, pb.bottom - pb.top));
  let pieceStart = 0;
  let rowTop: number[] = [];
  const emitPiece = (endRow: number) => {
    if (endRow <= pieceStart) return;
    const page = pb.current();
    const top = rowTop[0]!;
    const bottomY = rowTop[endRow - pieceStart - 1]! + rowHeight[endRow - 1]!;
    const cells: TableCell[] = [];
    const rules: RuleLine[] = [];
    for (const c of table.cells) {
      if (c.row >= endRow || c.row + c.rowSpan <= pieceStart) continue;
      const r0 = Math.max(c.row, pieceStart);
      const r1 = Math.min(c.row + c.rowSpan, endRow) - 1;
      const y1 = rowTop[r0 - pieceStart]!;
      const y2 = rowTop[r1 - pieceStart]! + rowHeight[r1]!;
      const x1 = xs[c.col]!;
      const x2 = xs[Math.min(table.cols, c.col + c.colSpan)]!;
      const text = c.row >= pieceStart ? normalizeText(c.text).trim() : '';
      cells.push({ row: r0 - pieceStart, col: c.col, rowSpan: r1 - r0 + 1, colSpan: c.colSpan, text, bbox: [round1(x1), round1(y1), round1(x2), round1(y2)] });
      if (text && c.row >= pieceStart) {
        let ly = y1 + CELL_PAD;
        for (const t of wrappedOf.get(c)!) {
          page.lines.push(makeLine(t, x1 + CELL_PAD, ly, size, c.row === 0));
          ly += lineHeight;
        }
      }
    }
    for (let r = pieceStart; r <= endRow; r++) {
      const y = r < endRow ? rowTop[r - pieceStart]! : bottomY;
      rules.push({ x1: xs[0]!, y1: round1(y), x2: round1(xs[table.cols]!), y2: round1(y), width: 1 });
    }
    for (const x of xs) rules.push({ x1: round1(x), y1: round1(top), x2: round1(x), y2: round1(bottomY), width: 1 });
    page.rules.push(...rules);
    cells.sort((a, b) => a.row - b.row || a.col - b.col);
    const bbox: BBox = [round1(xs[0]!), round1(top), round1(xs[table.cols]!), round1(bottomY)];
    const rowsInPiece = endRow - pieceStart;
    page.sourceBlocks!.push({ type: 'Table', text: tableText(cells, rowsInPiece, table.cols), bbox, table: { bbox, rows: rowsInPiece, cols: table.cols, cells } });
  };
  for (let r = 0; r < table.rows; r++) {
    if (pb.y + rowHeight[r]! > pb.bottom && r > pieceStart) {
      emitPiece(r);
      pb.newPage();
      pieceStart = r;
      rowTop = [];
    }
    rowTop.push(pb.y);
    pb.y += rowHeight[r]!;
  }
  emitPiece(table.rows);
  pb.y += 20;
}

/** Plain reading of a table: one line per row, cells separated by " | ". */
function tableText(cells: TableCell[], rows: number, cols: number): string {
  const grid: string[][] = Array.from({ length: rows }, () => new Array<string>(cols).fill(''));
  for (const c of cells) if (grid[c.row]) grid[c.row]![c.col] = c.text.replace(/\s*\n\s*/g, ' ');
  return grid.map((r) => r.join(' | ')).join('\n');
}

function unionOf(boxes: BBox[]): BBox {
  return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Lay out grid cells given as rows of (text, spans) by HTML-style placement: each cell takes the next free slot. */
export function placeCells(rows: { text: string; rowSpan: number; colSpan: number }[][]): FlowTable {
  const taken: boolean[][] = [];
  const cells: FlowTable['cells'] = [];
  let cols = 0;
  rows.forEach((row, r) => {
    taken[r] ??= [];
    let c = 0;
    for (const cell of row) {
      while (taken[r]![c]) c++;
      const rowSpan = Math.max(1, Math.min(cell.rowSpan, rows.length - r));
      const colSpan = Math.max(1, Math.min(cell.colSpan, 1000));
      for (let dr = 0; dr < rowSpan; dr++) {
        taken[r + dr] ??= [];
        for (let dc = 0; dc < colSpan; dc++) taken[r + dr]![c + dc] = true;
      }
      cells.push({ row: r, col: c, rowSpan, colSpan, text: cell.text });
      c += colSpan;
      cols = Math.max(cols, c);
    }
  });
  return { rows: rows.length, cols, cells };
}
