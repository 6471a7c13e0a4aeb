/**
 * Reading order of OCR lines by recursive XY-cut: the set is split at its widest empty band (a column gutter,
 * or the space between a heading and what follows), top before bottom and left before right, until each part
 * is a single row. Boxes are given in deskewed page coordinates so a tilted page cuts like a straight one.
 */
export interface OrderBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

interface Cut {
  gap: number;
  first: number[];
  second: number[];
}

/** Widest gap along one axis: items whose [lo, hi] do not overlap are split there. */
function widestGap(idx: number[], lo: (i: number) => number, hi: (i: number) => number): Cut | null {
  const sorted = idx.slice().sort((a, b) => lo(a) - lo(b));
  let reach = hi(sorted[0]!);
  let best: Cut | null = null;
  for (let k = 1; k < sorted.length; k++) {
    const i = sorted[k]!;
    const gap = lo(i) - reach;
    if (gap > 0 && (!best || gap > best.gap)) best = { gap, first: sorted.slice(0, k), second: sorted.slice(k) };
    reach = Math.max(reach, hi(i));
  }
  return best;
}

export function xyCutOrder(boxes: OrderBox[]): number[] {
  const heights = boxes.map((b) => b.y2 - b.y1).sort((a, b) => a - b);
  const lineH = heights[Math.floor(heights.length / 2)] ?? 1;
  const out: number[] = [];
  const visit = (idx: number[]) => {
    if (idx.length <= 1) {
      out.push(...idx);
      return;
    }
    const rows = widestGap(idx, (i) => boxes[i]!.y1, (i) => boxes[i]!.y2);
    // A vertical cut must be a real gutter (about a line height), not the space between two words.
    const cols = widestGap(idx, (i) => boxes[i]!.x1, (i) => boxes[i]!.x2);
    const colOk = cols && cols.gap >= 0.8 * lineH;
    if (colOk && (!rows || cols.gap > rows.gap)) {
      visit(cols.first);
      visit(cols.second);
    } else if (rows) {
      visit(rows.first);
      visit(rows.second);
    } else if (colOk) {
      visit(cols.first);
      visit(cols.second);
    } else {
      // Overlapping in both directions: fall back to top-to-bottom, then left-to-right.
      out.push(...idx.slice().sort((a, b) => boxes[a]!.y1 - boxes[b]!.y1 || boxes[a]!.x1 - boxes[b]!.x1));
    }
  };
  visit(boxes.map((_, i) => i));
  return out;
}
