import { MARK, type InkMask } from './ink-mask.js';

/**
 * Long straight stretches of ink along the rows (horizontal runs) and the columns (vertical runs) of a mask,
 * bridging gaps of up to `gap` cells (scan dropouts, dotted rules). A run is kept when it is at least
 * `minRun` cells long. Runs come grouped by line (row or column), each line's runs left to right.
 */
export interface RunSet {
  /** Row index (horizontal runs) or column index (vertical runs) of each run. */
  line: Int32Array;
  start: Int32Array;
  end: Int32Array;
  /** Inked cells of each run (fewer than its length where gaps were bridged). */
  ink: Int32Array;
  /** Index of the first run of line k is lineStart[k]; runs of line k end before lineStart[k + 1]. */
  lineStart: Int32Array;
  count: number;
}

class RunBuffer {
  line: number[] = [];
  start: number[] = [];
  end: number[] = [];
  ink: number[] = [];
  push(k: number, s: number, e: number, n: number): void {
    this.line.push(k);
    this.start.push(s);
    this.end.push(e);
    this.ink.push(n);
  }
}

function toRunSet(buf: RunBuffer, lines: number): RunSet {
  const count = buf.line.length;
  const lineStart = new Int32Array(lines + 1);
  for (const k of buf.line) lineStart[k + 1]!++;
  for (let k = 0; k < lines; k++) lineStart[k + 1]! += lineStart[k]!;
  return { line: Int32Array.from(buf.line), start: Int32Array.from(buf.start), end: Int32Array.from(buf.end), ink: Int32Array.from(buf.ink), lineStart, count };
}

export function findInkRuns(mask: InkMask, minRunH: number, minRunV: number, gap: number, bit = MARK): { h: RunSet; v: RunSet } {
  const { width: w, height: h, data } = mask;
  const hb = new RunBuffer();
  // Vertical runs end at different rows per column: collect them per column, then in column order.
  const vCols: number[][] = Array.from({ length: w }, () => []);
  const vStart = new Int32Array(w).fill(-1);
  const vLast = new Int32Array(w).fill(-1);
  const vInk = new Int32Array(w);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let hs = -1;
    let hl = -1;
    let hn = 0;
    for (let x = 0; x < w; x++) {
      if ((data[row + x]! & bit) === 0) continue;
      if (hs >= 0 && x - hl > gap + 1) {
        if (hl - hs + 1 >= minRunH) hb.push(y, hs, hl, hn);
        hs = x;
        hn = 0;
      } else if (hs < 0) hs = x;
      hl = x;
      hn++;
      const vs = vStart[x]!;
      if (vs >= 0 && y - vLast[x]! > gap + 1) {
        if (vLast[x]! - vs + 1 >= minRunV) vCols[x]!.push(vs, vLast[x]!, vInk[x]!);
        vStart[x] = y;
        vInk[x] = 0;
      } else if (vs < 0) vStart[x] = y;
      vLast[x] = y;
      vInk[x]!++;
    }
    if (hs >= 0 && hl - hs + 1 >= minRunH) hb.push(y, hs, hl, hn);
  }
  const vb = new RunBuffer();
  for (let x = 0; x < w; x++) {
    const col = vCols[x]!;
    if (vStart[x]! >= 0 && vLast[x]! - vStart[x]! + 1 >= minRunV) col.push(vStart[x]!, vLast[x]!, vInk[x]!);
    for (let i = 0; i < col.length; i += 3) vb.push(x, col[i]!, col[i + 1]!, col[i + 2]!);
  }
  return { h: toRunSet(hb, h), v: toRunSet(vb, w) };
}
