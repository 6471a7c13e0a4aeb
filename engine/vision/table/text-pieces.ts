import { bboxUnion, type BBox } from '../../core/geometry.js';
import type { TextLine, TextRun } from '../../core/page.js';
import { isCjk } from '../../core/text.js';

/**
 * A stretch of a text line with no wide gap inside: a table cell's text, or a whole line of prose.
 * Readers give a table row as one line with runs far apart, or as one line per cell; pieces make both the same.
 */
export interface TextPiece {
  text: string;
  bbox: BBox;
  fontSize: number;
  line: TextLine;
}

/** Gap between runs, in multiples of the font size, that separates two cells. */
const CELL_GAP_EM = 1.1;

export function joinRunTexts(runs: readonly { text: string; bbox: BBox; fontSize: number }[]): string {
  let out = '';
  let prev: { text: string; bbox: BBox; fontSize: number } | undefined;
  for (const r of runs) {
    if (prev && out.length > 0) {
      const gap = r.bbox[0] - prev.bbox[2];
      const last = out[out.length - 1]!;
      const first = r.text[0] ?? '';
      const spaced = /\s/.test(last) || /^\s/.test(r.text);
      if (!spaced && gap > 0.2 * Math.max(1, r.fontSize) && !(isCjk(last) && isCjk(first))) out += ' ';
    }
    out += r.text;
    prev = r;
  }
  return out.replace(/\s+/g, ' ').trim();
}

export function splitLineIntoPieces(line: TextLine): TextPiece[] {
  const runs: TextRun[] = line.runs.length > 0 ? [...line.runs].sort((a, b) => a.bbox[0] - b.bbox[0]) : [];
  if (runs.length <= 1) return [{ text: line.text.trim(), bbox: line.bbox, fontSize: line.fontSize, line }];
  const groups: TextRun[][] = [[runs[0]!]];
  for (let i = 1; i < runs.length; i++) {
    const r = runs[i]!;
    const g = groups[groups.length - 1]!;
    const prev = g[g.length - 1]!;
    const em = Math.max(1, Math.max(prev.fontSize, r.fontSize) || line.fontSize);
    if (r.bbox[0] - prev.bbox[2] > CELL_GAP_EM * em && prev.text.trim() !== '' && r.text.trim() !== '') groups.push([r]);
    else g.push(r);
  }
  if (groups.length === 1) return [{ text: line.text.trim(), bbox: line.bbox, fontSize: line.fontSize, line }];
  return groups
    .map((g) => {
      const text = joinRunTexts(g);
      const bbox = bboxUnion(g.map((r) => r.bbox));
      const fontSize = Math.max(...g.map((r) => r.fontSize || line.fontSize));
      const part: TextLine = { ...line, text, bbox, runs: g, fontSize, bold: g.every((r) => r.bold ?? line.bold) };
      return { text, bbox, fontSize, line: part };
    })
    .filter((p) => p.text !== '');
}

/** Every run as its own piece: table cells are found from runs so that a line crossing cells is split. */
export function runPieces(lines: readonly TextLine[]): TextPiece[] {
  const out: TextPiece[] = [];
  for (const line of lines) {
    if (line.runs.length === 0) out.push({ text: line.text.trim(), bbox: line.bbox, fontSize: line.fontSize, line });
    else
      for (const r of line.runs)
        if (r.text.trim() !== '') out.push({ text: r.text.trim(), bbox: r.bbox, fontSize: r.fontSize || line.fontSize, line });
  }
  return out;
}

export function centerInside(b: BBox, area: BBox, tol = 0): boolean {
  const cx = (b[0] + b[2]) / 2;
  const cy = (b[1] + b[3]) / 2;
  return cx >= area[0] - tol && cx <= area[2] + tol && cy >= area[1] - tol && cy <= area[3] + tol;
}

/** Text of pieces that share a cell: rows top to bottom, pieces left to right. */
export function cellText(pieces: readonly TextPiece[]): string {
  const sorted = [...pieces].sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  const rows: TextPiece[][] = [];
  for (const p of sorted) {
    const row = rows[rows.length - 1];
    const cy = (p.bbox[1] + p.bbox[3]) / 2;
    if (row && cy < row[0]!.bbox[3] && cy > row[0]!.bbox[1]) row.push(p);
    else rows.push([p]);
  }
  const parts = rows.map((r) => joinRunTexts(r.sort((a, b) => a.bbox[0] - b.bbox[0])));
  let out = '';
  for (const part of parts) {
    if (out && !(isCjk(out[out.length - 1]!) && isCjk(part[0] ?? ''))) out += ' ';
    out += part;
  }
  return out.trim();
}

const NUMERIC = /^[(（\[]?[-+−–]?[$¥€£￥]?\s?[-+−–]?\d[\d,，.]*\s?(%|％|[万亿千百]?元|x|倍|bp)?[)）\]]?[*†]?$/i;
/** A cell value that is a number (with currency, sign, parentheses, percent), or a dash standing for nil. */
export function isNumericText(s: string): boolean {
  const t = s.trim();
  return NUMERIC.test(t) || /^[-–—]$/.test(t);
}
