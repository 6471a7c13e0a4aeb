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
