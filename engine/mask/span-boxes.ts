import type { BBox } from '../core/geometry.js';
import type { TextLine } from '../core/page.js';

/** Relative advance of a character: CJK and full-width characters are square, Latin and digits about half. */
function charWeight(ch: string): number {
  if (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch)) return 1;
  if (/\s/.test(ch)) return 0.33;
  if (/[il.,:;'|!]/.test(ch)) return 0.3;
  if (/[mwMW@]/.test(ch)) return 0.8;
  return 0.56;
}

/**
 * Left and right x of every character of a line. Characters inside a run share the run's width in
 * proportion to their advance; characters between runs (inserted spaces) fill the gap.
 */
export function characterXs(line: TextLine): Array<[number, number]> {
  const t = line.text;
  const xs: Array<[number, number] | null> = new Array(t.length).fill(null);
  let cursor = 0;
  const runs = line.runs.length > 0 ? line.runs : [{ text: t, bbox: line.bbox }];
  let placedAny = false;
  for (const run of runs) {
    const rt = run.text;
    if (!rt) continue;
    const at = t.indexOf(rt, cursor);
    if (at < 0) continue;
    placedAny = true;
    distribute(rt, at, run.bbox[0], run.bbox[2], xs);
    cursor = at + rt.length;
  }
  if (!placedAny) distribute(t, 0, line.bbox[0], line.bbox[2], xs);
  // Fill unplaced characters between their placed neighbours.
  for (let i = 0; i < t.length; i++) {
    if (xs[i]) continue;
    let j = i;
    while (j < t.length && !xs[j]) j++;
    const left = i > 0 ? xs[i - 1]![1] : line.bbox[0];
    const right = j < t.length ? xs[j]![0] : line.bbox[2];
    distribute(t.slice(i, j), i, left, Math.max(left, right), xs);
    i = j - 1;
  }
  return xs as Array<[number, number]>;
}

function distribute(s: string, at: number, x1: number, x2: number, xs: Array<[number, number] | null>): void {
  const weights = Array.from(s, charWeight);
  // Array.from splits by code point; map back to UTF-16 positions.
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  let x = x1;
  let k = at;
  let w = 0;
  for (const ch of s) {
    const adv = ((x2 - x1) * weights[w++]!) / total;
    for (let u = 0; u < ch.length; u++) xs[k++] = [x, x + adv];
    x += adv;
  }
}

/** The box covering characters [start, end) of a line, padded so that antialiased edges are covered too. */
export function lineSpanBox(line: TextLine, start: number, end: number, pageW: number, pageH: number): BBox {
  const xs = characterXs(line);
  const a = xs[Math.max(0, start)]!;
  const b = xs[Math.min(xs.length, end) - 1]!;
  const h = line.bbox[3] - line.bbox[1];
  const padX = Math.max(2, h * 0.15);
  const padY = Math.max(2, h * 0.12);
  return [
    Math.max(0, Math.floor(a[0] - padX)),
    Math.max(0, Math.floor(line.bbox[1] - padY)),
    Math.min(pageW, Math.ceil(b[1] + padX)),
    Math.min(pageH, Math.ceil(line.bbox[3] + padY)),
  ];
}
