import { bboxUnion } from '../../core/geometry.js';
import type { TextLine } from '../../core/page.js';
import { isCjk } from '../../core/text.js';

/** An OCR box holding one or two characters, about as wide as it is tall: one character of a vertical line. */
function isGlyphBox(l: TextLine): boolean {
  const chars = [...l.text.trim()];
  const n = chars.length;
  // Set vertically: CJK characters. Digits and Latin stacked in a column are a table column.
  if (!chars.every((c) => isCjk(c) && /\p{L}/u.test(c))) return false;
  const w = l.bbox[2] - l.bbox[0];
  const h = l.bbox[3] - l.bbox[1];
  return l.source === 'ocr' && n >= 1 && n <= 2 && w > 0 && h > 0 && w / h > 0.5 * n && w / h < 2.2 * n;
}

/**
 * Vertical text (a sidebar label, a newspaper headline set top to bottom) comes out of OCR as a stack of
 * one-character boxes. Three or more such boxes stacked in one narrow column, each close under the last,
 * are joined into one tall line read top to bottom, so that layout sees one narrow column, not a scatter of
 * characters that join the paragraphs beside them.
 */
export function joinVerticalText(lines: readonly TextLine[]): TextLine[] {
  const glyphs = lines.filter(isGlyphBox).sort((a, b) => a.bbox[1] - b.bbox[1]);
  const heights = lines.map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b);
  const medianHeight = heights[Math.floor(heights.length / 2)] ?? 0;
  const used = new Set<TextLine>();
  const stacks: TextLine[][] = [];
  for (const g of glyphs) {
    if (used.has(g)) continue;
    const stack = [g];
    used.add(g);
    for (let cur = g; ; ) {
      const w = cur.bbox[2] - cur.bbox[0];
      const h = cur.bbox[3] - cur.bbox[1];
      const cx = (cur.bbox[0] + cur.bbox[2]) / 2;
      // OCR can miss a character or two of a large headline: the next glyph may lie up to a few glyph heights
      // below, as long as nothing else is set across the column in between.
      const next = glyphs.find((o) => {
        if (used.has(o) || o.bbox[1] < cur.bbox[3] - 0.3 * h) return false;
        const ow = o.bbox[2] - o.bbox[0];
        if (Math.abs((o.bbox[0] + o.bbox[2]) / 2 - cx) >= 0.35 * Math.max(w, ow) || ow / w <= 0.6 || ow / w >= 1.7) return false;
        const gap = o.bbox[1] - cur.bbox[3];
        if (gap < 0.8 * h) return true;
        // Only headline type (well above the page's usual line height) is read across such a gap: a column of
        // single characters in body size, spaced out, is a table column.
        if (Math.min(h, o.bbox[3] - o.bbox[1]) < 1.3 * medianHeight || gap > 3 * Math.max(h, o.bbox[3] - o.bbox[1])) return false;
        const x1 = Math.min(cur.bbox[0], o.bbox[0]);
        const x2 = Math.max(cur.bbox[2], o.bbox[2]);
        return !lines.some((m) => m !== cur && m !== o && m.bbox[0] < x2 && m.bbox[2] > x1 && m.bbox[1] < o.bbox[1] && m.bbox[3] > cur.bbox[3]);
      });
      if (!next) break;
      stack.push(next);
      used.add(next);
      cur = next;
    }
    if (stack.length >= 3) stacks.push(stack);
  }
  if (stacks.length === 0) return [...lines];
  const gone = new Set(stacks.flat());
  const joined = stacks.map((s): TextLine => {
    const text = s.map((l) => l.text.trim()).join('');
    const bbox = bboxUnion(s.map((l) => l.bbox));
    const fontSize = Math.max(...s.map((l) => l.fontSize));
    return { ...s[0]!, text, bbox, runs: [{ text, bbox, fontSize }], fontSize, confidence: Math.min(...s.map((l) => l.confidence)) };
  });
  return [...lines.filter((l) => !gone.has(l)), ...joined];
}
