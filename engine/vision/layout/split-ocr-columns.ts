import type { BBox } from '../../core/geometry.js';
import type { TextLine } from '../../core/page.js';
import { isCjk } from '../../core/text.js';

/**
 * OCR text detection can join two lines that face each other across a narrow column gutter into one line.
 * The gutter shows in the other lines: many end just left of it and many start just right of it. A line that
 * runs through such a gutter is cut there; its text is shared out by width (at a space for Latin text).
 */
export function splitOcrLinesAtGutters(lines: readonly TextLine[], pageWidth: number): TextLine[] {
  const ocr = lines.filter((l) => l.source === 'ocr');
  if (ocr.length < 12) return [...lines];
  const left = Math.min(...ocr.map((l) => l.bbox[0]));
  const right = Math.max(...ocr.map((l) => l.bbox[2]));
  const span = right - left;
  const narrow = ocr.filter((l) => l.bbox[2] - l.bbox[0] < 0.55 * span);
  if (narrow.length < 10) return [...lines];
  const tol = Math.max(4, pageWidth * 0.02);
  // Candidate gutters: an x where narrow lines end on the left and start on the right, and none runs through.
  const ends = narrow.map((l) => l.bbox[2]).sort((a, b) => a - b);
  const gutters: [number, number][] = [];
  for (const e of ends) {
    const endGroup = narrow.filter((l) => Math.abs(l.bbox[2] - e) <= tol);
    if (endGroup.length < 5) continue;
    const gEnd = Math.max(...endGroup.map((l) => l.bbox[2]));
    const starts = narrow.filter((l) => l.bbox[0] > gEnd && l.bbox[0] - gEnd <= 4 * tol);
    if (starts.length < 5) continue;
    const gStart = Math.min(...starts.map((l) => l.bbox[0]));
    if (gStart - gEnd < 2 || narrow.some((l) => l.bbox[0] < gEnd - tol && l.bbox[2] > gStart + tol)) continue;
    if (!gutters.some(([a, b]) => Math.min(b, gStart) - Math.max(a, gEnd) > -tol)) gutters.push([gEnd, gStart]);
  }
  if (gutters.length === 0) return [...lines];
  // A line is only cut where the gutter shows beside it: a column line just above or below it ends at the gutter
  // or starts at it. A block of full-width lines (an abstract over two columns, a paragraph over a table whose
  // cells happen to line up) has no such neighbour and stays whole.
  const gutterNear = (p: TextLine, a: number, b: number): boolean => {
    const h = p.bbox[3] - p.bbox[1];
    const cy = (p.bbox[1] + p.bbox[3]) / 2;
    return narrow.some((m) => m !== p && Math.abs((m.bbox[1] + m.bbox[3]) / 2 - cy) < 2.5 * h && (Math.abs(m.bbox[2] - a) <= tol || Math.abs(m.bbox[0] - b) <= tol));
  };
  const out: TextLine[] = [];
  for (const l of lines) {
    let parts: TextLine[] = [l];
    for (const [a, b] of gutters) {
      parts = parts.flatMap((p) => (p.source === 'ocr' && p.bbox[0] < a - tol && p.bbox[2] > b + tol && gutterNear(p, a, b) ? cutLine(p, (a + b) / 2) : [p]));
    }
    out.push(...parts);
  }
  return out;
}

function cutLine(l: TextLine, x: number): TextLine[] {
  const chars = [...l.text];
  const share = (x - l.bbox[0]) / (l.bbox[2] - l.bbox[0]);
  let at = Math.round(share * chars.length);
  if (!chars.slice(Math.max(0, at - 3), at + 3).some((c) => isCjk(c))) {
    // Latin text: the nearest space within a few characters
    let best = -1;
    for (let d = 0; d <= 6 && best < 0; d++) {
      if (chars[at - d] === ' ') best = at - d;
      else if (chars[at + d] === ' ') best = at + d;
    }
    if (best < 0) return [l];
    at = best;
  }
  const t1 = chars.slice(0, at).join('').trim();
  const t2 = chars.slice(at).join('').trim();
  if (!t1 || !t2) return [l];
  const b1: BBox = [l.bbox[0], l.bbox[1], x - 2, l.bbox[3]];
  const b2: BBox = [x + 2, l.bbox[1], l.bbox[2], l.bbox[3]];
  return [
    { ...l, text: t1, bbox: b1, runs: [{ text: t1, bbox: b1, fontSize: l.fontSize }] },
    { ...l, text: t2, bbox: b2, runs: [{ text: t2, bbox: b2, fontSize: l.fontSize }] },
  ];
}
