import type { BBox } from '../../core/geometry.js';
import type { RuleLine, TableCell, TableGrid } from '../../core/page.js';
import { cellText, centerInside, type TextPiece } from './text-pieces.js';

/** A horizontal rule at its mean height; tilt = how far its ends differ in height (a skewed scan). */
interface HSeg { y: number; x1: number; x2: number; tilt?: number }
interface VSeg { x: number; y1: number; y2: number; tilt?: number }

const MIN_SEG = 6;
const MAX_TILT = 0.035;

export function splitRules(rules: readonly RuleLine[]): { h: HSeg[]; v: VSeg[] } {
  const h: HSeg[] = [];
  const v: VSeg[] = [];
  for (const r of rules) {
    const dx = Math.abs(r.x2 - r.x1);
    const dy = Math.abs(r.y2 - r.y1);
    // A rule of a slightly skewed scan tilts by up to about 2 degrees.
    if (dy <= Math.max(2, r.width, MAX_TILT * dx) && dx >= MIN_SEG) h.push({ y: (r.y1 + r.y2) / 2, x1: Math.min(r.x1, r.x2), x2: Math.max(r.x1, r.x2), tilt: dy });
    else if (dx <= Math.max(2, r.width, MAX_TILT * dy) && dy >= MIN_SEG) v.push({ x: (r.x1 + r.x2) / 2, y1: Math.min(r.y1, r.y2), y2: Math.max(r.y1, r.y2), tilt: dx });
  }
  return { h, v };
}

/** Values within tol of each other become one (their mean). */
export function clusterPositions(values: number[], tol: number): number[] {
  const s = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const x of s) {
    const last = out[out.length - 1];
    if (last && x - last[last.length - 1]! <= tol) last.push(x);
    else out.push([x]);
  }
  return out.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
}

/** Connected groups of segments (a horizontal and a vertical segment touch when they cross within tol). */
function groupSegments(h: HSeg[], v: VSeg[], tol: number, maxStack: number): { h: HSeg[]; v: VSeg[] }[] {
  const n = h.length + v.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const unite = (a: number, b: number): void => {
    parent[find(a)] = find(b);
  };
  // v sorted by x: each horizontal segment checks only the verticals within its x-range.
  const vOrder = v.map((_, j) => j).sort((p, q) => v[p]!.x - v[q]!.x);
  const vx = vOrder.map((j) => v[j]!.x);
  const lowerBound = (x: number): number => {
    let lo = 0;
    let hi = vx.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (vx[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const crossed = new Uint8Array(h.length);
  for (let i = 0; i < h.length; i++) {
    const a = h[i]!;
    for (let k = lowerBound(a.x1 - tol); k < vx.length && vx[k]! <= a.x2 + tol; k++) {
      const j = vOrder[k]!;
      const b = v[j]!;
      if (a.y >= b.y1 - tol && a.y <= b.y2 + tol) {
        unite(i, h.length + j);
        crossed[i] = 1;
      }
    }
  }
  // Stacked horizontal rules of the same width (tables ruled only by horizontal lines) belong together:
  // each rule joins the next one below it that has the same extent. Beyond 400 px only where one of the two
  // meets no vertical rule: two framed boxes (figures, grids) far apart are no table ruled from top to bottom.
  const hOrder = h.map((_, i) => i).sort((p, q) => h[p]!.y - h[q]!.y);
  for (let k = 0; k < hOrder.length; k++) {
    const a = h[hOrder[k]!]!;
    for (let m = k + 1; m < hOrder.length && h[hOrder[m]!]!.y - a.y < maxStack; m++) {
      const b = h[hOrder[m]!]!;
      const overlap = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
      if (b.y - a.y >= 400 && crossed[hOrder[k]!] && crossed[hOrder[m]!]) continue;
      if (overlap > 0.9 * Math.max(a.x2 - a.x1, b.x2 - b.x1)) {
        unite(hOrder[k]!, hOrder[m]!);
        break;
      }
    }
  }
  const groups = new Map<number, { h: HSeg[]; v: VSeg[] }>();
  for (let i = 0; i < n; i++) {
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { h: [], v: [] }));
    if (i < h.length) g.h.push(h[i]!);
    else g.v.push(v[i - h.length]!);
  }
  return [...groups.values()];
}

function covered(segs: { a: number; b: number }[], from: number, to: number): boolean {
  const len = to - from;
  if (len <= 0) return true;
  let cover = 0;
  const sorted = segs.filter((s) => s.b > from && s.a < to).sort((p, q) => p.a - q.a);
  let cur = from;
  for (const s of sorted) {
    const a = Math.max(cur, s.a);
    const b = Math.min(to, s.b);
    if (b > a) {
      cover += b - a;
      cur = b;
    }
  }
  return cover >= 0.6 * len;
}

export interface RuledTableCandidate {
  bbox: BBox;
  /** Column boundaries known from vertical rules; null when the table is ruled only horizontally. */
  xs: number[] | null;
  ys: number[];
  h: HSeg[];
  v: VSeg[];
}

/**
 * Areas enclosed by ruling lines that could be tables (a grid, or stacked rules of one width). Stacked rules
 * join up to 400 px apart, or up to 60% of `pageHeight` when it is given (a long table ruled only at its top,
 * under its header and at its bottom).
 */
export function findRuledAreas(rules: readonly RuleLine[], pageWidth: number, pageHeight?: number): RuledTableCandidate[] {
  const tol = Math.max(3, pageWidth / 400);
  const { h, v } = splitRules(rules);
  const maxStack = Math.max(400, 0.6 * (pageHeight ?? 0));
  const out: RuledTableCandidate[] = [];
  const groups = groupSegments(h, v, tol, maxStack);
  for (const g of groups) {
    const frame = pageHeight ? pageFrame(g, tol, pageHeight) : null;
    if (frame) {
      // The rules inside a frame drawn around the page's content make tables of their own.
      for (const inner of groupSegments(g.h.filter((s) => !frame.h.includes(s)), g.v.filter((s) => !frame.v.includes(s)), tol, maxStack)) {
        const area = ruledArea(inner, tol, pageWidth);
        if (area) out.push(area);
      }
      continue;
    }
    const area = ruledArea(g, tol, pageWidth);
    if (area) out.push(area);
  }
  return out;
}

function groupBox(g: { h: HSeg[]; v: VSeg[] }): BBox {
  return [
    Math.min(...g.h.map((s) => s.x1), ...g.v.map((s) => s.x)),
    Math.min(...g.h.map((s) => s.y), ...g.v.map((s) => s.y1)),
    Math.max(...g.h.map((s) => s.x2), ...g.v.map((s) => s.x)),
    Math.max(...g.h.map((s) => s.y), ...g.v.map((s) => s.y2)),
  ];
}

/**
 * A box drawn around a page's content (or a large part of it): rules on its four sides, and no full-width
 * rules inside it closer than a fifth of the page apart (a bordered table's rows are much closer). Returns
 * the frame's rules.
 */
function pageFrame(g: { h: HSeg[]; v: VSeg[] }, tol: number, pageHeight: number): { h: HSeg[]; v: VSeg[] } | null {
  if (g.h.length < 2 || g.v.length < 2) return null;
  const [x1, y1, x2, y2] = groupBox(g);
  if (y2 - y1 < 0.3 * pageHeight) return null;
  const fullH = g.h.filter((s) => s.x2 - s.x1 >= 0.9 * (x2 - x1)).sort((a, b) => a.y - b.y);
  const fullV = g.v.filter((s) => s.y2 - s.y1 >= 0.9 * (y2 - y1)).sort((a, b) => a.x - b.x);
  if (fullH.length < 2 || fullV.length < 2) return null;
  const top = fullH[0]!;
  const bottom = fullH[fullH.length - 1]!;
  const left = fullV[0]!;
  const right = fullV[fullV.length - 1]!;
  if (top.y - y1 > tol || y2 - bottom.y > tol || left.x - x1 > tol || x2 - right.x > tol) return null;
  let widest = 0;
  for (let i = 1; i < fullH.length; i++) widest = Math.max(widest, fullH[i]!.y - fullH[i - 1]!.y);
  if (widest < 0.2 * pageHeight) return null;
  return { h: [top, bottom], v: [left, right] };
}

function ruledArea(g: { h: HSeg[]; v: VSeg[] }, tol: number, pageWidth: number): RuledTableCandidate | null {
  if (g.h.length < 2) return null;
  const [x1, y1, x2, y2] = groupBox(g);
  if (x2 - x1 < pageWidth * 0.12 || y2 - y1 < tol * 4) return null;
  const ys = clusterPositions(g.h.map((s) => s.y), tol);
  if (g.v.length >= 2) {
    const xs = clusterPositions(g.v.map((s) => s.x), tol);
    // The mean position of a tilted rule lies inside the box its ends span: that is no missing border.
    const slackX = tol + Math.max(0, ...g.v.map((s) => s.tilt ?? 0)) / 2;
    const slackY = tol + Math.max(0, ...g.h.map((s) => s.tilt ?? 0)) / 2;
    if (xs[0]! - x1 > slackX) xs.unshift(x1);
    if (x2 - xs[xs.length - 1]! > slackX) xs.push(x2);
    if (ys[0]! - y1 > slackY) ys.unshift(y1);
    if (y2 - ys[ys.length - 1]! > slackY) ys.push(y2);
    return { bbox: [x1, y1, x2, y2], xs, ys, h: g.h, v: g.v };
  }
  if (ys.length >= 2) return { bbox: [x1, y1, x2, y2], xs: null, ys, h: g.h, v: g.v };
  return null;
}

/** Cells of a grid table: merged cells where the separator between two grid cells is missing. */
export function gridCells(c: RuledTableCandidate & { xs: number[] }, pieces: readonly TextPiece[], tol: number): TableGrid | null {
  const { xs, ys } = c;
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  if (rows < 1 || cols < 2) return null;
  const vByX = xs.map((x) => c.v.filter((s) => Math.abs(s.x - x) <= tol).map((s) => ({ a: s.y1, b: s.y2 })));
  const hByY = ys.map((y) => c.h.filter((s) => Math.abs(s.y - y) <= tol).map((s) => ({ a: s.x1, b: s.x2 })));
  const wallRight = (r: number, col: number): boolean => covered(vByX[col + 1]!, ys[r]!, ys[r + 1]!);
  const wallBelow = (r: number, col: number): boolean => covered(hByY[r + 1]!, xs[col]!, xs[col + 1]!);
  const taken: boolean[][] = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(false));
  const cells: TableCell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let col = 0; col < cols; col++) {
      if (taken[r]![col]) continue;
      let colSpan = 1;
      while (col + colSpan < cols && !wallRight(r, col + colSpan - 1) && !taken[r]![col + colSpan]) colSpan++;
      let rowSpan = 1;
      while (r + rowSpan < rows) {
        let open = true;
        for (let k = col; k < col + colSpan; k++) if (wallBelow(r + rowSpan - 1, k) || taken[r + rowSpan]![k]) open = false;
        if (!open) break;
        rowSpan++;
      }
      for (let i = r; i < r + rowSpan; i++) for (let k = col; k < col + colSpan; k++) taken[i]![k] = true;
      const bbox: BBox = [xs[col]!, ys[r]!, xs[col + colSpan]!, ys[r + rowSpan]!];
      const inside = pieces.filter((p) => centerInside(p.bbox, bbox));
      cells.push({ row: r, col, rowSpan, colSpan, text: cellText(inside), bbox });
    }
  }
  return { bbox: c.bbox, rows, cols, cells };
}
