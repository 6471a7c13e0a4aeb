import type { BBox } from '../core/geometry.js';
import type { DocumentPages, Page } from '../core/page.js';
import { normalizeText } from '../core/text.js';
import { unifyRadicals } from '../core/text.js';

/** A piece of a text line separated from its neighbours by a wide gap: a label, a value, a cell. */
export interface Token {
  text: string;
  box: BBox;
  page: number;
  /** Height of the line it came from: the unit for gaps and alignments. */
  height: number;
  /** Came from a table cell. */
  cell?: boolean;
}

/** Tokens whose vertical extents overlap, left to right. */
export interface Row {
  tokens: Token[];
  top: number;
  bottom: number;
}

export interface PageLayout {
  page: Page;
  rows: Row[];
}

function charWeight(ch: string): number {
  if (/\s/.test(ch)) return 0.35;
  return /[\u2e80-\uffef]/.test(ch) ? 1 : 0.55;
}

/** Cuts a line's text at runs of two or more spaces; sub-boxes are placed by each character's share of the width. */
export function splitLine(text: string, box: BBox, page: number): Token[] {
  const chars = [...unifyRadicals(normalizeText(text))];
  const height = Math.max(1, box[3] - box[1]);
  const weights = chars.map(charWeight);
  const unit = (box[2] - box[0]) / (weights.reduce((a, b) => a + b, 0) || 1);
  const out: Token[] = [];
  let x = box[0];
  let segX = box[0];
  let seg = '';
  const flush = (endX: number): void => {
    const s = seg.trim();
    if (s) out.push({ text: s, box: [segX, box[1], Math.max(segX + 1, endX), box[3]], page, height });
    seg = '';
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (/\s/.test(ch) && /\s/.test(chars[i + 1] ?? '') && seg.trim()) {
      flush(x);
      while (i < chars.length && /\s/.test(chars[i]!)) x += weights[i++]! * unit;
      i--;
      continue;
    }
    if (seg === '') segX = x;
    seg += ch;
    x += weights[i]! * unit;
  }
  flush(box[2]);
  return out;
}

/** Groups tokens into rows: a token joins the row whose vertical middle band it overlaps most. */
export function buildRows(tokens: Token[]): Row[] {
  const sorted = [...tokens].sort((a, b) => (a.box[1] + a.box[3]) / 2 - (b.box[1] + b.box[3]) / 2);
  const rows: Row[] = [];
  for (const t of sorted) {
    const mid = (t.box[1] + t.box[3]) / 2;
    let best: Row | null = null;
    for (let i = rows.length - 1; i >= Math.max(0, rows.length - 4); i--) {
      const r = rows[i]!;
      const rMid = (r.top + r.bottom) / 2;
      const h = Math.min(r.bottom - r.top, t.height);
      if (Math.abs(rMid - mid) < h * 0.45) {
        best = r;
        break;
      }
    }
    if (best) {
      best.tokens.push(t);
      best.top = Math.min(best.top, t.box[1]);
      best.bottom = Math.max(best.bottom, t.box[3]);
    } else {
      rows.push({ tokens: [t], top: t.box[1], bottom: t.box[3] });
    }
  }
  for (const r of rows) r.tokens.sort((a, b) => a.box[0] - b.box[0]);
  rows.sort((a, b) => a.top - b.top);
  return rows;
}

/** Tokens of the page's lines and of its source tables (cells become tokens), grouped into rows. */
export function layoutPage(page: Page): PageLayout {
  const tokens: Token[] = [];
  const tableBoxes: BBox[] = [];
  for (const sb of page.sourceBlocks ?? []) {
    if (sb.furniture || !sb.table) continue;
    tableBoxes.push(sb.table.bbox);
    for (const c of sb.table.cells) {
      const text = unifyRadicals(normalizeText(c.text)).replace(/\s+/g, ' ').trim();
      if (text) tokens.push({ text, box: c.bbox, page: page.pageNumber, height: Math.max(1, Math.min(c.bbox[3] - c.bbox[1], 40)), cell: true });
    }
  }
  for (const line of page.lines) {
    const cx = (line.bbox[0] + line.bbox[2]) / 2;
    const cy = (line.bbox[1] + line.bbox[3]) / 2;
    if (tableBoxes.some((b) => cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3])) continue;
    tokens.push(...splitLine(line.text, line.bbox, page.pageNumber));
  }
  return { page, rows: buildRows(splitStacked(tokens)) };
}

/**
 * A detector sometimes boxes the first characters of several stacked labels as one tall narrow token
 * ("名类住" spanning three rows). Such a token is cut into one token per character, placed top to bottom,
 * so that each character joins its own row.
 */
export function splitStacked(tokens: Token[]): Token[] {
  const heights = tokens.map((t) => t.box[3] - t.box[1]).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  if (median <= 0) return tokens;
  const out: Token[] = [];
  for (const t of tokens) {
    const chars = [...t.text.replace(/\s+/g, '')];
    const h = t.box[3] - t.box[1];
    const w = t.box[2] - t.box[0];
    if (chars.length >= 2 && h > 1.8 * median && w < 2.5 * median && w < 1.4 * (h / chars.length) && chars.every((c) => /[\u4e00-\u9fff]/.test(c))) {
      const step = h / chars.length;
      chars.forEach((c, i) => {
        const y1 = t.box[1] + i * step;
        out.push({ ...t, text: c, box: [t.box[0], y1, t.box[2], y1 + step], height: step });
      });
    } else out.push(t);
  }
  return out;
}

export function layoutDocument(doc: DocumentPages): PageLayout[] {
  return doc.pages.map(layoutPage);
}

/** The reading-order text of a page: rows top to bottom, tokens left to right. */
export function rowText(row: Row): string {
  return row.tokens.map((t) => t.text).join(' ');
}
