import type { BBox } from '../../core/geometry.js';
import { normalizeText } from '../../core/text.js';
import type { PdfFontFace, Span } from './pdf-text-lines.js';
import { multiplyMatrix, type Matrix } from './pdf-matrix.js';

/** Text operator codes of pdf.js `OPS` used here. */
export interface PdfTextOps {
  save: number;
  restore: number;
  transform: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  beginAnnotation: number;
  endAnnotation: number;
  beginText: number;
  setCharSpacing: number;
  setWordSpacing: number;
  setHScale: number;
  setLeading: number;
  setFont: number;
  setTextRise: number;
  moveText: number;
  setLeadingMoveText: number;
  setTextMatrix: number;
  nextLine: number;
  showText: number;
  showSpacedText: number;
  nextLineShowText: number;
  nextLineSetSpacingShowText: number;
}

/** What the text engine needs of a font (from pdf.js commonObjs). */
export interface OpsFont {
  face: PdfFontFace;
  fontMatrix: number[];
  ascent: number;
  descent: number;
  vertical: boolean;
  type3: boolean;
}

interface Glyph {
  unicode?: string;
  width?: number;
  isSpace?: boolean;
}



interface TextState {
  ctm: Matrix;
  font: OpsFont | undefined;
  fontSize: number;
  fontDirection: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  tm: Matrix;
  x: number;
  y: number;
  lineX: number;
  lineY: number;
}

// eslint-disable-next-line no-control-regex
const PLAIN_ASCII = /^(?:[\x21-\x7e]| (?! ))*$/;

/** A TJ adjustment wider than this share of an em starts a new span (a word gap or a column jump). */
const SPLIT_EM = 0.12;

/**
 * Positioned text spans straight from the operator list, following the text state the way pdf.js's
 * canvas renderer does (so one content-stream pass serves text, rules and images). Returns null when
 * a page uses what this does not follow (Type3 or vertical fonts, fonts not loaded): the caller then
 * asks pdf.js for its text content instead.
 */
export function textSpansFromOps(
  fnArray: readonly number[],
  argsArray: readonly unknown[],
  OPS: PdfTextOps,
  viewport: number[],
  fontOf: (loadedName: string) => OpsFont | undefined,
): Span[] | null {
  const spans: Span[] = [];
  let st: TextState = {
    ctm: viewport.slice(0, 6) as Matrix,
    font: undefined,
    fontSize: 0,
    fontDirection: 1,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
    tm: [1, 0, 0, 1, 0, 0],
    x: 0,
    y: 0,
    lineX: 0,
    lineY: 0,
  };
  const stack: TextState[] = [];
  const initial = { ...st };
  const moveText = (x: number, y: number) => {
    st.x = st.lineX += x;
    st.y = st.lineY += y;
  };

  const show = (glyphs: unknown[]): boolean => {
    const font = st.font;
    if (!font) return true;
    if (font.type3 || font.vertical) return false;
    const size = st.fontSize;
    const advanceScale = size * (font.fontMatrix[0] ?? 0.001);
    // Text space of this run, as pdf.js paints it: CTM x Tm x translate(x, y + rise) x scale(hScale, 1).
    const m = multiplyMatrix(multiplyMatrix(multiplyMatrix(st.ctm, st.tm), [1, 0, 0, 1, st.x, st.y + st.rise]), [st.hScale, 0, 0, 1, 0, 0]);
    let x = 0;
    let text = '';
    let start = 0;
    const flush = (end: number) => {
      // Printable ASCII without double spaces is already in normal form (NFKC, no controls, spaces collapsed).
      const t = PLAIN_ASCII.test(text) ? text : normalizeText(text);
      if (t.trim()) spans.push(makeSpan(t, start, end, m, size, font, spans.length));
      text = '';
    };
    for (const g of glyphs) {
      if (typeof g === 'number') {
        const dx = (-g * size) / 1000;
        if (Math.abs(dx) > SPLIT_EM * size) {
          flush(x);
          x += dx;
          start = x;
        } else x += dx;
        continue;
      }
      const glyph = g as Glyph;
      if (!text) start = x;
      const spacing = (glyph.isSpace ? st.wordSpacing : 0) + st.charSpacing;
      text += glyph.unicode ?? '';
      x += (glyph.width ?? 0) * advanceScale + spacing * st.fontDirection;
    }
    flush(x);
    st.x += x * st.hScale;
    return true;
  };

  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const a = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save:
        stack.push({ ...st });
        break;
      case OPS.restore: {
        const s = stack.pop();
        if (s) st = s;
        break;
      }
      case OPS.transform:
        if (a) st.ctm = multiplyMatrix(st.ctm, a as number[]);
        break;
      case OPS.paintFormXObjectBegin: {
        stack.push({ ...st });
        const fm = a?.[0] as number[] | null;
        if (fm && fm.length === 6) st.ctm = multiplyMatrix(st.ctm, fm);
        break;
      }
      case OPS.paintFormXObjectEnd: {
        const s = stack.pop();
        if (s) st = s;
        break;
      }
      case OPS.beginAnnotation: {
        // An annotation's appearance stream: fresh state in page space, then its rect transform and matrix.
        stack.push({ ...st });
        const t = a?.[2] as number[] | null;
        const am = a?.[3] as number[] | null;
        st = { ...initial };
        if (t && t.length === 6) st.ctm = multiplyMatrix(st.ctm, t);
        if (am && am.length === 6) st.ctm = multiplyMatrix(st.ctm, am);
        break;
      }
      case OPS.endAnnotation: {
        const s = stack.pop();
        if (s) st = s;
        break;
      }
      case OPS.beginText:
        st.tm = [1, 0, 0, 1, 0, 0];
        st.x = st.lineX = 0;
        st.y = st.lineY = 0;
        break;
      case OPS.setCharSpacing:
        st.charSpacing = Number(a?.[0]) || 0;
        break;
      case OPS.setWordSpacing:
        st.wordSpacing = Number(a?.[0]) || 0;
        break;
      case OPS.setHScale:
        st.hScale = (Number(a?.[0]) || 100) / 100;
        break;
      case OPS.setLeading:
        st.leading = -(Number(a?.[0]) || 0);
        break;
      case OPS.setTextRise:
        st.rise = Number(a?.[0]) || 0;
        break;
      case OPS.setFont: {
        const size = Number(a?.[1]) || 0;
        st.font = fontOf(String(a?.[0]));
        if (!st.font) return null;
        st.fontDirection = size < 0 ? -1 : 1;
        st.fontSize = Math.abs(size);
        break;
      }
      case OPS.moveText:
        moveText(Number(a?.[0]) || 0, Number(a?.[1]) || 0);
        break;
      case OPS.setLeadingMoveText:
        st.leading = Number(a?.[1]) || 0;
        moveText(Number(a?.[0]) || 0, Number(a?.[1]) || 0);
        break;
      case OPS.setTextMatrix: {
        const tm = (a?.[0] ?? a) as ArrayLike<number>;
        st.tm = [tm[0]!, tm[1]!, tm[2]!, tm[3]!, tm[4]!, tm[5]!];
        st.x = st.lineX = 0;
        st.y = st.lineY = 0;
        break;
      }
      case OPS.nextLine:
        moveText(0, st.leading);
        break;
      case OPS.showText:
      case OPS.showSpacedText:
        if (!show((a?.[0] as unknown[]) ?? [])) return null;
        break;
      case OPS.nextLineShowText:
        moveText(0, st.leading);
        if (!show((a?.[0] as unknown[]) ?? [])) return null;
        break;
      case OPS.nextLineSetSpacingShowText:
        moveText(0, st.leading);
        st.wordSpacing = Number(a?.[0]) || 0;
        st.charSpacing = Number(a?.[1]) || 0;
        if (!show((a?.[2] as unknown[]) ?? [])) return null;
        break;
      default:
        break;
    }
  }
  return spans;
}

function makeSpan(text: string, x0: number, x1: number, m: Matrix, size: number, font: OpsFont, seq: number): Span {
  const asc = font.ascent > 0.3 && font.ascent < 1.5 ? font.ascent : 0.85;
  const desc = font.descent < 0 && font.descent > -0.8 ? -font.descent : 0.2;
  // The four corners of the span's box in text space, mapped to the page (m applied to (x, y)).
  const yLo = -desc * size;
  const yHi = asc * size;
  const ax = m[0] * x0 + m[2] * yLo + m[4], ay = m[1] * x0 + m[3] * yLo + m[5];
  const bx = m[0] * x1 + m[2] * yLo + m[4], by = m[1] * x1 + m[3] * yLo + m[5];
  const cx = m[0] * x0 + m[2] * yHi + m[4], cy = m[1] * x0 + m[3] * yHi + m[5];
  const dx = m[0] * x1 + m[2] * yHi + m[4], dy = m[1] * x1 + m[3] * yHi + m[5];
  const box: BBox = [Math.min(ax, bx, cx, dx), Math.min(ay, by, cy, dy), Math.max(ax, bx, cx, dx), Math.max(ay, by, cy, dy)];
  // size on the page: the length of the text-space "up" vector of one em
  const fontSize = Math.hypot(m[2] * size, m[3] * size);
  const horizontal = Math.abs(m[1]) < 1e-3 * Math.abs(m[0]) && m[0] > 0 && m[3] < 0;
  return { text, box, fontSize, font: font.face, horizontal, seq };
}
