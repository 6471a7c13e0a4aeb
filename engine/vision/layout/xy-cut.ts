import type { BBox } from '../../core/geometry.js';

export interface CutItem {
  bbox: BBox;
}

/** Gaps in the projection of boxes on one axis: [start, end] of every empty stretch between first and last box. */
function projectionGaps(items: readonly CutItem[], axis: 0 | 1): [number, number][] {
  const iv = items.map((i) => [i.bbox[axis], i.bbox[axis + 2]] as [number, number]).sort((a, b) => a[0] - b[0]);
  const gaps: [number, number][] = [];
  let end = iv[0]![1];
  for (let k = 1; k < iv.length; k++) {
    const [a, b] = iv[k]!;
    if (a > end) gaps.push([end, a]);
    end = Math.max(end, b);
  }
  return gaps;
}

export interface XyCutOptions {
  /** Narrowest vertical whitespace channel that separates columns. */
  minColumnGap: number;
  /** Smallest horizontal gap that separates bands (above ordinary line spacing). */
  minBandGap: number;
}

/**
 * Recursive XY-cut: columns (vertical whitespace through the whole block) are split first, left to right,
 * then bands top to bottom; the leaves come back in reading order.
 */
export function xyCut<T extends CutItem>(items: readonly T[], opts: XyCutOptions, depth = 0): T[][] {
  if (items.length <= 1 || depth > 40) return items.length ? [[...items]] : [];
  const colGaps = projectionGaps(items, 0).filter(([a, b]) => b - a >= opts.minColumnGap);
  if (colGaps.length > 0) {
    // The widest channel splits first; the parts recurse (and split again on their own channels).
    const [a, b] = colGaps.reduce((m, g) => (g[1] - g[0] > m[1] - m[0] ? g : m));
    const cut = (a + b) / 2;
    const left = items.filter((i) => (i.bbox[0] + i.bbox[2]) / 2 < cut);
    const right = items.filter((i) => (i.bbox[0] + i.bbox[2]) / 2 >= cut);
    if (left.length && right.length) return [...xyCut(left, opts, depth + 1), ...xyCut(right, opts, depth + 1)];
  }
  const bandGaps = projectionGaps(items, 1).filter(([a, b]) => b - a >= opts.minBandGap);
  if (bandGaps.length > 0) {
    const out: T[][] = [];
    let rest = [...items];
    for (const [a, b] of bandGaps) {
      const cut = (a + b) / 2;
      const band = rest.filter((i) => (i.bbox[1] + i.bbox[3]) / 2 < cut);
      rest = rest.filter((i) => (i.bbox[1] + i.bbox[3]) / 2 >= cut);
      if (band.length) out.push(...xyCut(band, opts, depth + 1));
    }
    if (rest.length) out.push(...xyCut(rest, opts, depth + 1));
    return out;
  }
  return [[...items]];
}
