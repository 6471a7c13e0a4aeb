import type { BBox } from '../../core/geometry.js';
import type { TextLine, TextRun } from '../../core/page.js';
import { isCjk, normalizeText } from '../../core/text.js';
import { applyMatrix, multiplyMatrix, type Matrix } from './pdf-matrix.js';

/** A text item as pdf.js `getTextContent` returns it. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL?: boolean;
}

export interface PdfFontStyle {
  ascent?: number;
  descent?: number;
  vertical?: boolean;
}

export interface PdfFontFace {
  name: string;
  bold: boolean;
  italic: boolean;
}


/** One positioned piece of text in page pixels, before lines are formed. */
export interface Span {
  text: string;
  box: BBox;
  fontSize: number;
  font: PdfFontFace | undefined;
  /** Text direction in page pixels: 0 = left to right, otherwise a rotated span kept on its own line. */
  horizontal: boolean;
  /** Drawn twice with a small offset to look bold. */
  fakeBold?: boolean;
  /** Position in content-stream order. */
  seq?: number;
}



/**
 * Turn pdf.js text items into TextLines in page pixels (`viewport` = user space -> pixels, CropBox and
 * /Rotate included). Items on one baseline join into a line; a gap wider than about an em splits it,
 * so that table cells and columns stay apart for layout.
 */
export function buildTextLines(
  items: readonly PdfTextItem[],
  styles: Record<string, PdfFontStyle>,
  viewport: number[],
  fontOf: (fontName: string) => PdfFontFace | undefined,
): TextLine[] {
  const vp = viewport as Matrix;
  const spans: Span[] = [];
  for (const item of items) {
    if (!item.str || !item.str.trim()) continue;
    const t = item.transform;
    const style = styles[item.fontName] ?? {};
    const fontHeight = Math.hypot(t[2]!, t[3]!);
    const fontWidthScale = Math.hypot(t[0]!, t[1]!);
    if (fontHeight <= 0 || fontWidthScale <= 0) continue;
    const ascent = style.ascent && style.ascent > 0.3 && style.ascent < 1.5 ? style.ascent : 0.85;
    const descent = style.descent && style.descent < 0 && style.descent > -0.8 ? -style.descent : 0.2;
    // Text space: x along the baseline (item.width is already in user units), y up per the font height.
    const ux = [t[0]! / fontWidthScale, t[1]! / fontWidthScale];
    const uy = [t[2]! / fontHeight, t[3]! / fontHeight];
    const along = style.vertical ? 0 : item.width;
    const corners: Array<[number, number]> = [];
    for (const [a, h] of [
      [0, -descent * fontHeight],
      [along, -descent * fontHeight],
      [0, ascent * fontHeight],
      [along, ascent * fontHeight],
    ] as const) {
      corners.push(applyMatrix(vp, t[4]! + ux[0]! * a + uy[0]! * h, t[5]! + ux[1]! * a + uy[1]! * h));
    }
    const xs = corners.map((c) => c[0]);
    const ys = corners.map((c) => c[1]);
    const box: BBox = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    const dev = multiplyMatrix(vp, t);
    const size = Math.hypot(dev[2], dev[3]);
    const horizontal = Math.abs(dev[1]) < 1e-3 * Math.abs(dev[0]) && dev[0] > 0;
    const text = normalizeText(item.str);
    if (!text.trim()) continue;
    spans.push({ text, box, fontSize: size, font: fontOf(item.fontName), horizontal });
  }
  return groupSpansIntoLines(spans);
}

export function groupSpansIntoLines(spans: Span[]): TextLine[] {
  const lines: TextLine[] = [];
  const horizontal = spans.filter((s) => s.horizontal);
  for (const s of spans) if (!s.horizontal) lines.push(lineOf([s]));

  // Rows: spans whose vertical extents mostly overlap. Sorted by centre y, each span only looks at recent rows.
  horizontal.sort((a, b) => a.box[1] + a.box[3] - (b.box[1] + b.box[3]));
  const rows: { top: number; bottom: number; spans: Span[] }[] = [];
  for (const s of horizontal) {
    const h = s.box[3] - s.box[1];
    let target: (typeof rows)[number] | undefined;
    for (let i = rows.length - 1; i >= 0 && i >= rows.length - 4; i--) {
      const r = rows[i]!;
      const overlap = Math.min(r.bottom, s.box[3]) - Math.max(r.top, s.box[1]);
      if (overlap > 0.5 * Math.min(h, r.bottom - r.top)) {
        target = r;
        break;
      }
    }
    if (target) {
      target.spans.push(s);
      target.top = Math.min(target.top, s.box[1]);
      target.bottom = Math.max(target.bottom, s.box[3]);
    } else {
      rows.push({ top: s.box[1], bottom: s.box[3], spans: [s] });
    }
  }
  for (const row of rows) {
    row.spans = orderRow(row.spans);
    let current: Span[] = [];
    for (const s of row.spans) {
      const prev = current[current.length - 1];
      // "Fake bold": the same string drawn twice a hair apart. Keep one copy and call it bold.
      if (prev && prev.text === s.text && Math.abs(prev.box[0] - s.box[0]) < 0.2 * s.fontSize && Math.abs(prev.box[1] - s.box[1]) < 0.2 * s.fontSize) {
        prev.fakeBold = true;
        continue;
      }
      if (prev) {
        const em = Math.max(prev.fontSize, s.fontSize);
        const gap = s.box[0] - prev.box[2];
        if (gap > 1.0 * em) {
          lines.push(lineOf(current));
          current = [];
        }
      }
      current.push(s);
    }
    if (current.length) lines.push(lineOf(current));
  }
  lines.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  return lines;
}

/**
 * Left-to-right order of a row. Spans that continue each other in the content stream (the next
 * starts where the previous ended) stay together as one chunk, so two strings that overlap on the
 * page (a check mark over a label) never get their characters interleaved; chunks are then sorted by x.
 */
function orderRow(spans: Span[]): Span[] {
  const byX = [...spans].sort((a, b) => a.box[0] - b.box[0]);
  if (spans.length < 2 || spans.some((s) => s.seq === undefined)) return byX;
  // Only rows where strings really overlap need the stream order (x order places superscripts right).
  let overlapping = false;
  for (let i = 1; i < byX.length && !overlapping; i++) {
    const prev = byX[i - 1]!;
    const s = byX[i]!;
    if (s.box[0] < prev.box[2] - 0.3 * Math.max(prev.fontSize, s.fontSize) && s.text !== prev.text) overlapping = true;
  }
  if (!overlapping) return byX;
  const inStream = [...spans].sort((a, b) => a.seq! - b.seq!);
  const chunks: Span[][] = [];
  for (const s of inStream) {
    const chunk = chunks[chunks.length - 1];
    const prev = chunk?.[chunk.length - 1];
    const em = Math.max(prev?.fontSize ?? 0, s.fontSize);
    if (prev && s.box[0] >= prev.box[2] - 0.3 * em && s.box[0] <= prev.box[2] + 1.0 * em) chunk!.push(s);
    else chunks.push([s]);
  }
  chunks.sort((a, b) => a[0]!.box[0] - b[0]!.box[0]);
  return chunks.flat();
}

function lineOf(spans: Span[]): TextLine {
  const runs: TextRun[] = [];
  let text = '';
  let prev: Span | undefined;
  for (const s of spans) {
    if (prev) {
      const gap = s.box[0] - prev.box[2];
      const last = text[text.length - 1] ?? ' ';
      const first = s.text[0] ?? ' ';
      const cjkJoin = isCjk(last) && isCjk(first);
      if (last !== ' ' && first !== ' ' && gap > (cjkJoin ? 0.6 : 0.15) * Math.min(prev.fontSize, s.fontSize)) text += ' ';
    }
    text += s.text;
    const run: TextRun = { text: s.text, bbox: roundBox(s.box), fontSize: round1(s.fontSize) };
    if (s.font) {
      run.fontName = s.font.name;
      if (s.font.bold) run.bold = true;
      if (s.font.italic) run.italic = true;
    }
    if (s.fakeBold) run.bold = true;
    runs.push(run);
    prev = s;
  }
  // The dominant size and weight are those of most characters.
  let boldChars = 0;
  let total = 0;
  const sizeWeight = new Map<number, number>();
  for (const r of runs) {
    const n = r.text.length;
    total += n;
    if (r.bold) boldChars += n;
    sizeWeight.set(r.fontSize, (sizeWeight.get(r.fontSize) ?? 0) + n);
  }
  let fontSize = runs[0]!.fontSize;
  let best = -1;
  for (const [size, w] of sizeWeight) if (w > best) [best, fontSize] = [w, size];
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of runs) {
    if (r.bbox[0] < bbox[0]) bbox[0] = r.bbox[0];
    if (r.bbox[1] < bbox[1]) bbox[1] = r.bbox[1];
    if (r.bbox[2] > bbox[2]) bbox[2] = r.bbox[2];
    if (r.bbox[3] > bbox[3]) bbox[3] = r.bbox[3];
  }
  return { text: text.trim(), bbox, runs, fontSize, bold: boldChars > total / 2, source: 'text', confidence: 1 };
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

function roundBox(b: BBox): BBox {
  return [round1(b[0]), round1(b[1]), round1(b[2]), round1(b[3])];
}
