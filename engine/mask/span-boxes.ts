import type { BBox } from '../core/geometry.js';
import type { TextLine } from '../core/page.js';

/** Relative advance of a character: CJK and full-width characters are square, Latin and digits about half. */
function charWeight(ch: string): number {
  if (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch)) return 1;
  if (/\s/.test(ch)) return 0.33;
  if (/[il.,:;'|!]/.test(ch)) return 0.3;
  if (/[mwMW@]/.test(ch)) return 0.8;
  if (/[0-9]/.test(ch)) return 0.57;
  return 0.58;
}

/**
 * Left and right x of every character of a line. Characters inside a run share the run's width in
 * proportion to their advance; characters between runs (inserted spaces) fill the gap.
 */
export function characterXs(line: TextLine): Array<[number, number]> {
  return characterPlacement(line).xs;
}

/** Character x ranges, and for each character the run it was placed in (its edges are exact, the inside estimated). */
function characterPlacement(line: TextLine): { xs: Array<[number, number]>; anchors: Array<[number, number]> } {
  const t = line.text;
  const xs: Array<[number, number] | null> = new Array(t.length).fill(null);
  const anchors: Array<[number, number]> = new Array(t.length).fill([line.bbox[0], line.bbox[2]]);
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
    for (let k = at; k < at + rt.length; k++) anchors[k] = [run.bbox[0], run.bbox[2]];
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
  return { xs: xs as Array<[number, number]>, anchors };
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
  const { xs, anchors } = characterPlacement(line);
  const first = Math.max(0, start);
  const last = Math.min(xs.length, end) - 1;
  const a = xs[first]!;
  const b = xs[last]!;
  const h = line.bbox[3] - line.bbox[1];
  const padX = Math.max(2, h * 0.15);
  const padY = Math.max(2, h * 0.12);
  // Inside a run, positions come from estimated character widths (fonts differ: digits are 0.5-0.65 em),
  // so the error grows with the distance from the run's exact edges: widen by a share of that distance.
  const uncertainty = (x: number, run: [number, number]): number => Math.min(1.5 * h, 0.09 * Math.max(0, Math.min(x - run[0], run[1] - x)));
  const left = a[0] - padX - uncertainty(a[0], anchors[first]!);
  const right = b[1] + padX + uncertainty(b[1], anchors[last]!);
  return [
    Math.max(0, Math.floor(left)),
    Math.max(0, Math.floor(line.bbox[1] - padY)),
    Math.min(pageW, Math.ceil(right)),
    Math.min(pageH, Math.ceil(line.bbox[3] + padY)),
  ];
}
