import { bboxUnion } from '../../core/geometry.js';
import type { TextLine } from '../../core/page.js';
import { cjkRatio, isCjk } from '../../core/text.js';
import { joinRunTexts } from '../table/text-pieces.js';
import { startsListItem } from './heading-rules.js';
import { restoreCjkPunctuation } from './cjk-punctuation.js';

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Lines of one column band side by side on one baseline become one line (left to right). */
export function mergeRowLines(lines: readonly TextLine[]): TextLine[] {
  const sorted = [...lines].sort((a, b) => (a.bbox[1] + a.bbox[3]) / 2 - (b.bbox[1] + b.bbox[3]) / 2);
  const rows: TextLine[][] = [];
  for (const l of sorted) {
    const row = rows[rows.length - 1];
    if (row) {
      const r = row[0]!;
      const ov = Math.min(r.bbox[3], l.bbox[3]) - Math.max(r.bbox[1], l.bbox[1]);
      const hr = r.bbox[3] - r.bbox[1];
      const hl = l.bbox[3] - l.bbox[1];
      // A box more than twice as tall is no piece of this row (a vertical headline beside a column).
      if (ov > 0.6 * Math.min(hr, hl) && Math.max(hr, hl) < 2.2 * Math.min(hr, hl)) {
        row.push(l);
        continue;
      }
    }
    rows.push([l]);
  }
  return rows.map((row) => {
    if (row.length === 1) return row[0]!;
    row.sort((a, b) => a.bbox[0] - b.bbox[0]);
    const text = joinRunTexts(row.map((l) => ({ text: l.text, bbox: l.bbox, fontSize: l.fontSize })));
    return {
      ...row[0]!,
      text,
      bbox: bboxUnion(row.map((l) => l.bbox)),
      runs: row.flatMap((l) => l.runs),
      fontSize: Math.max(...row.map((l) => l.fontSize)),
      bold: row.every((l) => l.bold),
      confidence: Math.min(...row.map((l) => l.confidence)),
    };
  });
}

/** Width the next line's first word would need on this line: a line that ends before that ended its paragraph. */
function firstWordWidth(a: TextLine, b: TextLine): number {
  const t = b.text.trim();
  const charW = (a.bbox[2] - a.bbox[0]) / Math.max(1, [...a.text].length);
  if (isCjk(t[0] ?? '')) return 2 * charW;
  const word = /^\S+/.exec(t)?.[0] ?? '';
  return (word.length + 1) * charW;
}

/** A numbered display equation: a formula line ending in its number, "(12)". It stands apart from the prose. */
function isDisplayEquation(text: string): boolean {
  const t = text.trim();
  return /\(\d{1,3}[a-z]?\)$/.test(t) && /[=<>≤≥∑∫≈]/.test(t);
}

/** A line set centred in its column with clear space on both sides: a heading or a caption, not running text. */
export function isCentred(l: TextLine, left: number, right: number, em: number): boolean {
  const l1 = l.bbox[0] - left;
  const r1 = right - l.bbox[2];
  if (l1 <= 0.4 * em || r1 <= 0.4 * em || Math.abs(l1 - r1) >= Math.max(0.08 * (right - left), em)) return false;
  // Latin text: more than a paragraph indent on both sides (a ragged first line looks centred otherwise).
  return (l1 > 1.5 * em && r1 > 1.5 * em) || cjkRatio(l.text) > 0.5;
}

const RUN_IN_LABEL = /^[A-Z][A-Za-z0-9&'/ -]{3,40}:(\s|$)/;

/** A run-in label in capitals, "SUMMARY:", "FOR FURTHER INFORMATION CONTACT:"; OCR may read a capital or two small ("AGENcY:"). */
export function isRunInLabel(text: string): boolean {
  const m = RUN_IN_LABEL.exec(text.trim());
  if (!m) return false;
  const letters = m[0].replace(/[^A-Za-z]/g, '');
  return letters.length >= 4 && letters.replace(/[^A-Z]/g, '').length >= 0.75 * letters.length;
}

/** Text that ends in a CJK character, or in punctuation right after one (NFKC turns "，" into ","). */
export function endsCjk(text: string): boolean {
  const t = text.replace(/[,.;:!?)\]」』”’》】。、]+$/, '');
  return t.length < text.length ? isCjk(t[t.length - 1] ?? '') : isCjk(text[text.length - 1] ?? '');
}

/** Text that begins with a CJK character, after any opening quote or bracket. */
export function startsCjk(text: string): boolean {
  const t = text.trim().replace(/^[“"'‘(（【《「『]+/, '');
  return isCjk(t[0] ?? '');
}

/** A line of Chinese characters only (nine in ten of its characters CJK, at least two of them). */
export function isHanLine(l: TextLine): boolean {
  return cjkRatio(l.text) >= 0.9 && [...l.text.replace(/\s+/g, '')].length >= 2;
}

/**
 * Of two lines, the one in a fifth larger type is set short of the column's width: less than four fifths of it,
 * or of the other line where that is wider (a stretch of two lines gives a poor measure of its column).
 */
function largerShortLine(a: TextLine, b: TextLine, left: number, right: number): boolean {
  const [big, small] = a.fontSize >= b.fontSize ? [a, b] : [b, a];
  const width = Math.max(right - left, small.bbox[2] - small.bbox[0]);
  return big.fontSize >= 1.2 * small.fontSize && big.bbox[2] - big.bbox[0] < 0.8 * width;
}

function lineHeight(l: TextLine): number {
  return Math.max(1, l.bbox[3] - l.bbox[1]);
}

/**
 * Lines of one column (top to bottom) into paragraphs: a new paragraph starts after a wider gap, on a change of
 * font size or weight, at a list marker, at an indented first line, or after a line that ends short.
 */
export function groupParagraphs(lines: readonly TextLine[]): TextLine[][] {
  const ls = mergeRowLines(lines);
  if (ls.length === 0) return [];
  const gaps: number[] = [];
  for (let i = 1; i < ls.length; i++) gaps.push(ls[i]!.bbox[1] - ls[i - 1]!.bbox[3]);
  const typicalGap = Math.max(0, median(gaps.filter((g) => g >= -2)));
  const left = median(ls.map((l) => l.bbox[0]));
  // The column's right edge: where most lines end (a stray wider line, a margin note or a headline piece
  // that fell into the column, must not make every line look short).
  const rights = ls.map((l) => l.bbox[2]).sort((a, b) => a - b);
  const right = rights[Math.min(rights.length - 1, Math.floor(rights.length * 0.8))]!;
  // OCR line boxes vary in height from line to line: sizes only count when they differ a lot.
  const ocr = ls.some((l) => l.source === 'ocr');
  const paras: TextLine[][] = [[ls[0]!]];
  for (let i = 1; i < ls.length; i++) {
    const a = ls[i - 1]!;
    const b = ls[i]!;
    const em = Math.max(a.fontSize, b.fontSize, 1);
    const h = Math.min(lineHeight(a), lineHeight(b));
    const gap = b.bbox[1] - a.bbox[3];
    // A first-line indent: about an em. An OCR box is taller than the type's em (padding, ascenders).
    const indent = (ocr ? 0.5 : 0.9) * em;
    let split = false;
    // A wider gap after a line that runs to the column's edge mid-sentence, above a line that is not indented,
    // is a line OCR missed (one or two line pitches), not a paragraph break.
    // OCR evidence that b carries on a's sentence: a runs to the column's edge without a stop, b starts at the margin.
    const carriesOn = a.source === 'ocr' && b.source === 'ocr' && right - a.bbox[2] < em && !/[.。!！?？:：;；]$/.test(a.text.trim()) && Math.abs(b.bbox[0] - left) < 0.5 * em && !startsListItem(b.text);
    const missedLine = carriesOn && gap < 2.5 * (h + typicalGap) && Math.abs(a.fontSize - b.fontSize) <= 0.2 * em;
    if (gap > typicalGap + 0.6 * h && !missedLine) split = true;
    else if (isDisplayEquation(a.text) || isDisplayEquation(b.text)) split = true;
    // An OCR box's height is a poor measure of its type (a line cut off by the page edge is shorter): it does not
    // part two lines that carry on one sentence.
    else if (Math.abs(a.fontSize - b.fontSize) > (ocr ? 0.35 : 0.12) * em && !carriesOn) split = true;
    // Chinese characters fill their em box, so the OCR box of a line of them measures its type well: a line a
    // fifth larger than the one next to it, and short of the column's width, is a heading over or under text
    // (tightly set body lines can differ as much in box height, but they run the column's width).
    else if (ocr && isHanLine(a) && isHanLine(b) && !carriesOn && largerShortLine(a, b, left, right)) split = true;
    else if (a.bold !== b.bold && (a.source === 'text' || b.source === 'text')) split = true;
    // A list marker, or a bracketed tag opening a Chinese item ("【摘要】", "【平安证券】"), opens a new item,
    // unless the line before runs on to the column's edge mid-sentence: then the "marker" is the wrapped text
    // of that sentence ("...第" / "三、第四副区...").
    else if ((startsListItem(b.text) || /^【[^】]{1,12}】/.test(b.text.trim())) && !(right - a.bbox[2] < em && !/[.。!！?？:：;；]$/.test(a.text.trim()))) split = true;
    else if (isCentred(a, left, right, em) !== isCentred(b, left, right, em)) split = true;
    // A run-in heading in capitals opens a paragraph: "SUMMARY: The Bureau...", "NOTE: ...".
    else if (isRunInLabel(b.text) && (/[.!?。:]$/.test(a.text.trim()) || right - a.bbox[2] > 3 * em)) split = true;
    else if (b.bbox[0] - left > indent && a.bbox[0] - left < 0.5 * indent && right - a.bbox[2] > 2 * em) split = true;
    else if (b.bbox[0] - left > indent && a.bbox[0] - left < 0.5 * indent && !isCjk(b.text[0] ?? '') && /[.!?]$/.test(a.text)) split = true;
    // Chinese text is set justified: a wrapped line never starts indented, so an indented line opens a paragraph.
    else if (b.bbox[0] - left > indent && a.bbox[0] < b.bbox[0] - 0.7 * indent && startsCjk(b.text)) split = true;
    else if (right - a.bbox[2] > firstWordWidth(a, b) + (/[.!?。！？:：]$/.test(a.text.trim()) ? 0.3 : 1.5) * em) split = true;
    else if (Math.abs(b.bbox[0] - a.bbox[0]) > 3 * em && Math.abs(b.bbox[2] - a.bbox[2]) > 3 * em) split = true;
    // A line set well to the right of the next line's start is no paragraph line it wraps into (right-aligned
    // dates and names, a line pushed right); first-line indents are smaller.
    else if (a.bbox[0] - b.bbox[0] > 3 * em) split = true;
    if (split) paras.push([b]);
    else paras[paras.length - 1]!.push(b);
  }
  return paras.flatMap(splitEquationNumber);
}

const EQUATION_NUMBER = /^\(\d{1,3}[a-z]?\)$/;

/**
 * A display equation with its number far out at the margin, "x = y        (13)": the formula and its number are
 * two elements (as a layout model sees them), each with its own box, read formula first.
 */
function splitEquationNumber(para: TextLine[]): TextLine[][] {
  const line = para[0]!;
  if (para.length !== 1 || line.runs.length < 2 || !isDisplayEquation(line.text)) return [para];
  const runs = [...line.runs].sort((a, b) => a.bbox[0] - b.bbox[0]);
  const num = runs[runs.length - 1]!;
  const rest = runs.slice(0, -1);
  const restBox = bboxUnion(rest.map((r) => r.bbox));
  if (!EQUATION_NUMBER.test(num.text.trim()) || num.bbox[0] - restBox[2] < 2 * lineHeight(line)) return [para];
  const text = joinRunTexts(rest);
  return [[{ ...line, text, bbox: restBox, runs: rest }], [{ ...line, text: num.text.trim(), bbox: num.bbox, runs: [num] }]];
}

/**
 * Text of a paragraph: lines joined with a space, or nothing between CJK characters; hyphenated breaks rejoined;
 * Chinese punctuation in its printed full-width form.
 */
export function paragraphText(lines: readonly TextLine[]): string {
  return restoreCjkPunctuation(joinLines(lines));
}

function joinLines(lines: readonly TextLine[]): string {
  let out = '';
  for (const l of lines) {
    const t = l.text.trim();
    if (!t) continue;
    if (!out) out = t;
    else if (/[a-z]-$/.test(out) && /^[a-z]/.test(t)) out = out.slice(0, -1) + t;
    else if (endsCjk(out) && startsCjk(t)) out += t;
    else out += ' ' + t;
  }
  return out;
}
