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

function sharesChannel(a: readonly CutItem[], b: readonly CutItem[], minGap: number): boolean {
  if (a.length < 2 || b.length < 2) return false;
  const ga = projectionGaps(a, 0).filter(([x, y]) => y - x >= minGap);
  const gb = projectionGaps(b, 0).filter(([x, y]) => y - x >= minGap);
  if (!ga.some(([a1, a2]) => gb.some(([b1, b2]) => Math.min(a2, b2) - Math.max(a1, b1) >= minGap * 0.5))) return false;
  // The channel must run through both bands together.
  return projectionGaps([...a, ...b], 0).some(([x, y]) => y - x >= minGap);
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
  // Pieces of one text row (answers "(1) ... (2) ..." spaced out on a line) are one line, not columns:
  // a channel through a single row only splits it when it is wider than a few line heights.
  const rowH = Math.min(...items.map((i) => i.bbox[3] - i.bbox[1]));
  const oneRow = Math.max(...items.map((i) => i.bbox[1])) < Math.min(...items.map((i) => i.bbox[3])) && rowH > 0;
  const colGaps = projectionGaps(items, 0).filter(([a, b]) => b - a >= opts.minColumnGap && (!oneRow || b - a > 3 * rowH));
  if (colGaps.length > 0) {
    // The widest channel splits first; the parts recurse (and split again on their own channels).
    const [a, b] = colGaps.reduce((m, g) => (g[1] - g[0] > m[1] - m[0] ? g : m));
    const cut = (a + b) / 2;
    const left = items.filter((i) => (i.bbox[0] + i.bbox[2]) / 2 < cut);
    const right = items.filter((i) => (i.bbox[0] + i.bbox[2]) / 2 >= cut);
    if (left.length && right.length) {
      // A left part that only begins far below the right part's top (a photo caption in a corner) is read after it.
      const top = (xs: readonly T[]): number => Math.min(...xs.map((i) => i.bbox[1]));
      const height = Math.max(...items.map((i) => i.bbox[3])) - top(items);
      const first = top(left) - top(right) > 0.4 * height ? [right, left] : [left, right];
      return [...xyCut(first[0]!, opts, depth + 1), ...xyCut(first[1]!, opts, depth + 1)];
    }
  }
  const bandGaps = projectionGaps(items, 1).filter(([a, b]) => b - a >= opts.minBandGap);
  if (bandGaps.length > 0) {
    const bands: T[][] = [];
    let rest = [...items];
    for (const [a, b] of bandGaps) {
      const cut = (a + b) / 2;
      const band = rest.filter((i) => (i.bbox[1] + i.bbox[3]) / 2 < cut);
      rest = rest.filter((i) => (i.bbox[1] + i.bbox[3]) / 2 >= cut);
      if (band.length) bands.push(band);
    }
    if (rest.length) bands.push(rest);
    // Two bands with a column channel at the same place are one multi-column block whose paragraph breaks
    // happen to line up: they are read column by column, not band by band.
    const merged: T[][] = [];
    for (const band of bands) {
      const prev = merged[merged.length - 1];
      if (prev && sharesChannel(prev, band, opts.minColumnGap)) prev.push(...band);
      else merged.push(band);
    }
    // All bands merged back into the whole block means their channels do not line up through it: keep the bands.
    return (merged.length === 1 ? bands : merged).flatMap((band) => xyCut(band, opts, depth + 1));
  }
  // No wide gap either way: a block of columns can still sit tight over or under a full-width element (a table,
  // a heading, a line of text set across). Cutting at the small gaps between rows shows it: the block is cut
  // where the rows above (or below) the cut, together, have a column channel that the whole block lacks.
  // Rows of OCR boxes overlap a little (boxes are padded around the ink): rows are told apart by their cores.
  const cores = items.map((i) => {
    const h = i.bbox[3] - i.bbox[1];
    return { bbox: [i.bbox[0], i.bbox[1] + 0.25 * h, i.bbox[2], i.bbox[3] - 0.25 * h] as BBox };
  });
  const smallGaps = projectionGaps(cores, 1).filter(([a, b]) => b - a >= Math.max(1, opts.minBandGap * 0.2));
  if (smallGaps.length > 0 && items.length >= 4) {
    const bands = splitBands(items, smallGaps);
    const hasColumns = (b: readonly T[]): boolean => b.length >= 4 && projectionGaps(b, 0).some(([a, c]) => c - a >= opts.minColumnGap && !markOnlySide(b, (a + c) / 2));
    const run = columnRun(bands, hasColumns);
    if (run) {
      const [i, j] = run;
      return [bands.slice(0, i), bands.slice(i, j), bands.slice(j)].filter((p) => p.length > 0).flatMap((p) => xyCut(p.flat(), opts, depth + 1));
    }
  }
  return [[...items]];
}

/**
 * Whether one side of a channel at x holds only small marks of a few characters each, no taller than the
 * other side's lines: equation numbers down the right margin, option letters. They make no column.
 */
function markOnlySide<T extends CutItem>(items: readonly T[], x: number): boolean {
  const left = items.filter((i) => (i.bbox[0] + i.bbox[2]) / 2 < x);
  const right = items.filter((i) => (i.bbox[0] + i.bbox[2]) / 2 >= x);
  const h = (i: T): number => i.bbox[3] - i.bbox[1];
  const marks = (side: readonly T[], other: readonly T[]): boolean => {
    const tall = Math.max(...other.map(h));
    return side.every((i) => i.bbox[2] - i.bbox[0] < 2.5 * h(i) && h(i) < 1.5 * tall);
  };
  return marks(left, right) || marks(right, left);
}

/**
 * The run of consecutive bands [i, j) with the most items that together have a column channel, when it is not
 * all of them. A run stops at a band holding an item as wide as the run (a full-width line can't be in a column).
 */
function columnRun<T extends CutItem>(bands: readonly T[][], hasColumns: (b: readonly T[]) => boolean): [number, number] | null {
  if (bands.length > 150) return null;
  let best: [number, number] | null = null;
  let bestItems = 0;
  for (let i = 0; i < bands.length; i++) {
    const acc: T[] = [];
    let x1 = Infinity;
    let x2 = -Infinity;
    for (let j = i; j < bands.length; j++) {
      acc.push(...bands[j]!);
      for (const it of bands[j]!) [x1, x2] = [Math.min(x1, it.bbox[0]), Math.max(x2, it.bbox[2])];
      if (hasColumns(acc)) {
        if (acc.length > bestItems && !(i === 0 && j === bands.length - 1)) [best, bestItems] = [[i, j + 1], acc.length];
      } else if (acc.length >= 4 && acc.some((it) => it.bbox[2] - it.bbox[0] > 0.9 * (x2 - x1))) break;
    }
  }
  return best;
}

function splitBands<T extends CutItem>(items: readonly T[], gaps: [number, number][]): T[][] {
  const bands: T[][] = [];
  let rest = [...items];
  for (const [a, b] of gaps) {
    const cut = (a + b) / 2;
    const band = rest.filter((i) => (i.bbox[1] + i.bbox[3]) / 2 < cut);
    rest = rest.filter((i) => (i.bbox[1] + i.bbox[3]) / 2 >= cut);
    if (band.length) bands.push(band);
  }
  if (rest.length) bands.push(rest);
  return bands;
}
