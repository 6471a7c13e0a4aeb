import { describe, expect, it } from 'vitest';
import { bboxIntersection, mergeBoxesWhile, type BBox } from '../../../engine/core/geometry.js';

describe('mergeBoxesWhile', () => {
  const near = (gap: number) => (a: BBox, b: BBox) => Math.max(a[0], b[0]) - Math.min(a[2], b[2]) <= gap && Math.max(a[1], b[1]) - Math.min(a[3], b[3]) <= gap;

  it('joins chains of boxes transitively and keeps the rest apart', () => {
    const boxes: BBox[] = [
      [0, 0, 10, 10],
      [100, 0, 110, 10],
      [14, 0, 24, 10], // 4 from the first
      [28, 0, 38, 10], // 4 from the third, 18 from the first
    ];
    expect(mergeBoxesWhile(boxes, near(5))).toEqual([
      [0, 0, 38, 10],
      [100, 0, 110, 10],
    ]);
  });

  it('returns a copy when nothing joins and leaves its input alone', () => {
    const boxes: BBox[] = [
      [0, 0, 10, 10],
      [50, 50, 60, 60],
    ];
    const out = mergeBoxesWhile(boxes, near(5));
    expect(out).toEqual(boxes);
    expect(out).not.toBe(boxes);
    expect(mergeBoxesWhile([], near(5))).toEqual([]);
  });
});

describe('bboxIntersection', () => {
  it('is the overlapping area, 0 for boxes that only touch', () => {
    expect(bboxIntersection([0, 0, 10, 10], [5, 5, 20, 20])).toBe(25);
    expect(bboxIntersection([0, 0, 10, 10], [10, 0, 20, 10])).toBe(0);
  });
});
