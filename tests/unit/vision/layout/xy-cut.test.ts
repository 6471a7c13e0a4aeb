import { describe, expect, it } from 'vitest';
import { xyCut } from '../../../../engine/vision/layout/xy-cut.js';

const box = (x1: number, y1: number, x2: number, y2: number) => ({ bbox: [x1, y1, x2, y2] as [number, number, number, number] });

describe('xyCut', () => {
  it('keeps the spaced-out pieces of one text row together', () => {
    const row = [box(100, 100, 180, 120), box(220, 101, 300, 121), box(340, 100, 420, 120)];
    expect(xyCut(row, { minColumnGap: 8, minBandGap: 24 })).toHaveLength(1);
  });

  it('still splits two columns of several lines at a narrow gutter', () => {
    const lines = [0, 1, 2, 3].flatMap((i) => [box(100, 100 + 30 * i, 480, 120 + 30 * i), box(500, 100 + 30 * i, 880, 120 + 30 * i)]);
    const leaves = xyCut(lines, { minColumnGap: 8, minBandGap: 24 });
    expect(leaves.map((l) => l.length)).toEqual([4, 4]);
    expect(leaves[0]!.every((i) => i.bbox[0] === 100)).toBe(true);
  });
});

describe('xyCut on rows of OCR boxes that overlap a little', () => {
  it('cuts a two-column block out above a full-width row even though padded boxes touch from row to row', () => {
    // Rows 18 px tall every 14 px: boxes of one column overlap by 4 px, so no row gap shows in the raw projection.
    const left = [0, 1, 2, 3, 4].map((i) => box(100, 100 + 14 * i, 480, 118 + 14 * i));
    const right = [0, 1, 2, 3, 4].map((i) => box(500, 100 + 14 * i, 880, 118 + 14 * i));
    const across = [0, 1].map((i) => box(100, 170 + 14 * i, 880, 188 + 14 * i));
    const leaves = xyCut([...left, ...right, ...across], { minColumnGap: 8, minBandGap: 20 });
    expect(leaves.map((l) => l.length)).toEqual([5, 5, 2]);
    expect(leaves[0]!.every((i) => i.bbox[0] === 100 && i.bbox[2] === 480)).toBe(true);
    expect(leaves[1]!.every((i) => i.bbox[0] === 500)).toBe(true);
  });

  it('cuts a two-column block out below a full-width heading', () => {
    const heading = box(100, 60, 880, 90);
    const left = [0, 1, 2, 3].map((i) => box(100, 96 + 14 * i, 480, 114 + 14 * i));
    const right = [0, 1, 2, 3].map((i) => box(500, 96 + 14 * i, 880, 114 + 14 * i));
    const leaves = xyCut([heading, ...left, ...right], { minColumnGap: 8, minBandGap: 20 });
    expect(leaves.map((l) => l.length)).toEqual([1, 4, 4]);
  });
});

describe('xyCut on a column block between two full-width rows', () => {
  it('cuts the columns out of the middle and reads above, left, right, below in order', () => {
    const above = [box(100, 60, 880, 78), box(100, 74, 880, 92)];
    const left = [0, 1, 2, 3].map((i) => box(100, 100 + 14 * i, 480, 118 + 14 * i));
    const right = [0, 1, 2, 3].map((i) => box(500, 100 + 14 * i, 880, 118 + 14 * i));
    const below = [box(100, 158, 880, 176), box(100, 172, 880, 190)];
    const leaves = xyCut([...above, ...left, ...right, ...below], { minColumnGap: 8, minBandGap: 20 });
    expect(leaves.map((l) => l.length)).toEqual([2, 4, 4, 2]);
    expect(leaves[1]!.every((i) => i.bbox[0] === 100 && i.bbox[2] === 480)).toBe(true);
    expect(leaves[3]!.every((i) => i.bbox[1] >= 158)).toBe(true);
  });

  it('does not take equation numbers down the right margin for a column', () => {
    const rows = [
      box(100, 60, 880, 78),
      box(200, 90, 500, 110),
      box(840, 90, 880, 110),
      box(200, 120, 520, 140),
      box(840, 120, 880, 140),
      box(100, 150, 880, 168),
      box(100, 164, 880, 182),
    ];
    const leaves = xyCut(rows, { minColumnGap: 8, minBandGap: 20 });
    expect(leaves).toHaveLength(1);
  });
});
