/**
 * Page geometry. Every coordinate in the engine is PixelSpace: top-left origin, y down,
 * in the pixels of the page as the engine sees it (PDF pages at 144 dpi after CropBox and /Rotate,
 * images in upright native pixels).
 */
export type BBox = [x1: number, y1: number, x2: number, y2: number];

export function bboxUnion(boxes: readonly BBox[]): BBox {
  if (boxes.length === 0) throw new RangeError('bboxUnion of no boxes');
  let [x1, y1, x2, y2] = boxes[0]!;
  for (const b of boxes) {
    x1 = Math.min(x1, b[0]);
    y1 = Math.min(y1, b[1]);
    x2 = Math.max(x2, b[2]);
    y2 = Math.max(y2, b[3]);
  }
  return [x1, y1, x2, y2];
}

export function bboxArea(b: BBox): number {
  return Math.max(0, b[2] - b[0]) * Math.max(0, b[3] - b[1]);
}

export function bboxIntersection(a: BBox, b: BBox): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}

export function bboxIoU(a: BBox, b: BBox): number {
  const inter = bboxIntersection(a, b);
  if (inter === 0) return 0;
  return inter / (bboxArea(a) + bboxArea(b) - inter);
}

export function roundBBox(b: BBox): BBox {
  return [Math.round(b[0]), Math.round(b[1]), Math.round(b[2]), Math.round(b[3])];
}

/**
 * Boxes joined pairwise until no pair qualifies: the first pair (in list order) for which `join` holds is replaced by
 * its union, at the first box's place, and the search starts again.
 */
export function mergeBoxesWhile(boxes: readonly BBox[], join: (a: BBox, b: BBox) => boolean): BBox[] {
  const out = [...boxes];
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length && !merged; j++) {
        if (!join(out[i]!, out[j]!)) continue;
        out[i] = bboxUnion([out[i]!, out[j]!]);
        out.splice(j, 1);
        merged = true;
      }
    }
  }
  return out;
}
