import type { RuleLine } from '../../core/page.js';
import { DARK, type InkMask } from './ink-mask.js';
import { findInkRuns, type RunSet } from './ink-runs.js';

/** A straight stroke found in the mask, in mask cells: along = position on the stroke's axis, across = the other. */
interface Stroke {
  from: number;
  to: number;
  /** Centre line across the axis at `from` and at `to` (a slightly skewed scan tilts it). */
  acrossFrom: number;
  acrossTo: number;
  thickness: number;
  /** Share of the stroke's length that is inked (below 1 for a dashed or dotted rule). */
  density: number;
}

export interface RulingOptions {
  /** Shortest horizontal / vertical rule, in page pixels. */
  minLengthH: number;
  minLengthV: number;
  /** Thickest rule, in page pixels. */
  maxThickness: number;
  /**
   * Deepest filled horizontal bar (a table's shaded header row) whose top and bottom edges count as rules, in
   * page pixels; 0 for none.
   */
  maxBarDepth: number;
  /** Widest gap between the dashes (or dots) of a dashed rule, in page pixels; 0 for no dashed rules. */
  maxDashGap: number;
}

/** Steepest tilt still read as a rule of a skewed scan (about 3 degrees). */
const MAX_SLOPE = 0.05;

/**
 * Ruling lines of a page from its ink mask: runs of ink along rows (columns) that touch from one row (column)
 * to the next form a stroke; a thin, straight, long stroke is a rule. Strokes broken by a short gap on one
 * line are joined. Thick strokes (filled bars, photos) and short ones (letters) are left out.
 */
export function findRulingLines(mask: InkMask, opts: RulingOptions): { solid: RuleLine[]; dashed: RuleLine[] } {
  const s = mask.scale;
  const gap = Math.max(1, Math.round(2 / s));
  const minRunH = Math.max(6, Math.floor(Math.min(opts.minLengthH, 60) / s / 2));
  const minRunV = Math.max(6, Math.floor(Math.min(opts.minLengthV, 60) / s / 2));
  const maxThick = opts.maxThickness / s + 1;
  const joinGap = Math.max(2, Math.round(10 / s));
  // Rules are dark: pale fills (shaded table headers) would otherwise swallow the rules that cross them.
  const solid = findInkRuns(mask, minRunH, minRunV, gap, DARK);
  const h = joinStrokes(strokes(solid.h, gap, maxThick, opts.maxBarDepth / s), joinGap);
  const v = joinStrokes(strokes(solid.v, gap, maxThick, 0), joinGap);
  const solidRules = [...toRules(h, v, s, opts)];
  if (opts.maxDashGap / s < gap + 1) return { solid: solidRules, dashed: [] };
  // Dashed and dotted rules: runs that bridge the gaps between dashes, inked over a quarter to four fifths of
  // their length, where no solid rule was found. Text bridged the same way makes thick strokes, left out.
  const dashGap = Math.round(opts.maxDashGap / s);
  const dashed = findInkRuns(mask, minRunH, minRunV, dashGap, DARK);
  const isDashed = (st: Stroke, known: Stroke[]): boolean => st.density >= 0.25 && st.density <= 0.8 && !known.some((k) => overlaps(k, st));
  const dh = joinStrokes(strokes(dashed.h, dashGap, maxThick, 0), joinGap).filter((st) => isDashed(st, h));
  const dv = joinStrokes(strokes(dashed.v, dashGap, maxThick, 0), joinGap).filter((st) => isDashed(st, v));
  return { solid: solidRules, dashed: toRules(dh, dv, s, opts) };
}

function toRules(h: Stroke[], v: Stroke[], s: number, opts: RulingOptions): RuleLine[] {
  const out: RuleLine[] = [];
  for (const st of h) {
    if ((st.to - st.from + 1) * s < opts.minLengthH) continue;
    out.push({ x1: st.from * s, y1: (st.acrossFrom + 0.5) * s, x2: (st.to + 1) * s, y2: (st.acrossTo + 0.5) * s, width: Math.max(1, st.thickness * s) });
  }
  for (const st of v) {
    if ((st.to - st.from + 1) * s < opts.minLengthV) continue;
    out.push({ x1: (st.acrossFrom + 0.5) * s, y1: st.from * s, x2: (st.acrossTo + 0.5) * s, y2: (st.to + 1) * s, width: Math.max(1, st.thickness * s) });
  }
  return out;
}

/** Two strokes on the same line whose extents overlap by half the shorter one. */
function overlaps(a: Stroke, b: Stroke): boolean {
  const across = Math.abs((a.acrossFrom + a.acrossTo) / 2 - (b.acrossFrom + b.acrossTo) / 2);
  const along = Math.min(a.to, b.to) - Math.max(a.from, b.from);
  return across <= 2 + Math.max(a.thickness, b.thickness) && along > 0.5 * Math.min(a.to - a.from, b.to - b.from);
}

/**
 * Runs on neighbouring lines that overlap (or nearly touch, for a tilted stroke) are one stroke. A level,
 * solidly filled bar up to `maxBarDepth` deep gives two strokes: its edges.
 */
function strokes(r: RunSet, gap: number, maxThick: number, maxBarDepth: number): Stroke[] {
  const parent = new Int32Array(r.count);
  for (let i = 0; i < r.count; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const lines = r.lineStart.length - 1;
  for (let k = 1; k < lines; k++) {
    let j = r.lineStart[k - 1]!;
    const jEnd = r.lineStart[k]!;
    for (let i = r.lineStart[k]!; i < r.lineStart[k + 1]!; i++) {
      while (j < jEnd && r.end[j]! + gap < r.start[i]!) j++;
      for (let m = j; m < jEnd && r.start[m]! <= r.end[i]! + gap; m++) {
        const a = find(i);
        const b = find(m);
        if (a !== b) parent[a] = b;
      }
    }
  }
  // Per stroke: extent, ink, and the weighted sums of a least-squares fit across = a + b * along.
  const stats = new Map<number, { from: number; to: number; lo: number; hi: number; ink: number; real: number; sw: number; sm: number; sk: number; smm: number; smk: number; runs: number[] }>();
  for (let i = 0; i < r.count; i++) {
    const root = find(i);
    const s0 = r.start[i]!;
    const e0 = r.end[i]!;
    const k = r.line[i]!;
    const w = e0 - s0 + 1;
    const m = (s0 + e0) / 2;
    let st = stats.get(root);
    if (!st) stats.set(root, (st = { from: s0, to: e0, lo: k, hi: k, ink: 0, real: 0, sw: 0, sm: 0, sk: 0, smm: 0, smk: 0, runs: [] }));
    st.from = Math.min(st.from, s0);
    st.to = Math.max(st.to, e0);
    st.lo = Math.min(st.lo, k);
    st.hi = Math.max(st.hi, k);
    st.ink += w;
    st.real += r.ink[i]!;
    st.sw += w;
    st.sm += w * m;
    st.sk += w * k;
    st.smm += w * m * m;
    st.smk += w * m * k;
    st.runs.push(i);
  }
  const out: Stroke[] = [];
  for (const st of stats.values()) {
    const len = st.to - st.from + 1;
    const thickness = st.ink / len;
    const depth = st.hi - st.lo + 1;
    if (thickness > maxThick) {
      if (depth <= maxBarDepth && st.ink >= 0.6 * len * depth && coverage(r, st.runs, st.from, st.to) >= 0.9) {
        for (const edge of [st.lo, st.hi]) out.push({ from: st.from, to: st.to, acrossFrom: edge, acrossTo: edge, thickness: 1, density: 1 });
      }
      continue;
    }
    const mm = st.sm / st.sw;
    const varM = st.smm / st.sw - mm * mm;
    let slope = varM > 1e-6 ? (st.smk / st.sw - mm * (st.sk / st.sw)) / varM : 0;
    // Runs of a level stroke share one centre, so the fit says nothing there: a stroke one or two lines deep is level.
    if (st.hi - st.lo <= Math.ceil(thickness) + 1) slope = 0;
    if (Math.abs(slope) > MAX_SLOPE) continue;
    // A line's shape: its depth across is its thickness plus its tilt, no more.
    if (st.hi - st.lo + 1 > thickness + Math.abs(slope) * len + 3) continue;
    if (coverage(r, st.runs, st.from, st.to) < 0.8) continue;
    const a = st.sk / st.sw - slope * mm;
    out.push({ from: st.from, to: st.to, acrossFrom: a + slope * st.from, acrossTo: a + slope * st.to, thickness, density: st.real / st.ink });
  }
  return out;
}

/** Share of [from, to] that the runs' projections cover. */
function coverage(r: RunSet, runs: number[], from: number, to: number): number {
  const iv = runs.map((i) => [r.start[i]!, r.end[i]!] as const).sort((p, q) => p[0] - q[0]);
  let covered = 0;
  let cur = from - 1;
  for (const [s0, e0] of iv) {
    if (e0 <= cur) continue;
    covered += e0 - Math.max(s0, cur + 1) + 1;
    cur = e0;
  }
  return covered / (to - from + 1);
}

/** Strokes on one line with a short gap between them (a rule broken in the scan) are joined. */
function joinStrokes(list: Stroke[], joinGap: number): Stroke[] {
  const sorted = [...list].sort((a, b) => a.from - b.from);
  const out: Stroke[] = [];
  for (const st of sorted) {
    const prev = out.find((p) => st.from - p.to <= joinGap && st.from > p.to - joinGap && Math.abs(p.acrossTo - st.acrossFrom) <= 1.5 + 0.5 * Math.max(p.thickness, st.thickness));
    if (prev) {
      const l1 = prev.to - prev.from + 1;
      const l2 = st.to - st.from + 1;
      prev.thickness = (prev.thickness * l1 + st.thickness * l2) / (l1 + l2);
      prev.density = (prev.density * l1 + st.density * l2) / (l1 + l2);
      prev.to = st.to;
      prev.acrossTo = st.acrossTo;
    } else out.push({ ...st });
  }
  return out;
}
