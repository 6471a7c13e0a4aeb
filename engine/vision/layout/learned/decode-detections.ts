import { bboxIoU, type BBox } from '../../../core/geometry.js';

/** One box as a model gives it: class index, score, box in the model's coordinates (see each decoder). */
export interface RawDetection {
  classId: number;
  score: number;
  bbox: BBox;
}

/**
 * PaddleDetection / PaddleX output after its built-in NMS: rows of [class id, score, x1, y1, x2, y2, ...]
 * (extra columns, such as a reading-order index, are ignored); `count` (the second output) limits the rows.
 * Padding rows have class id -1.
 */
export function decodePaddleRows(data: ArrayLike<number>, rows: number, cols: number, count: number | null, minScore: number): RawDetection[] {
  const out: RawDetection[] = [];
  const n = count === null ? rows : Math.min(rows, Math.max(0, count));
  for (let i = 0; i < n; i++) {
    const o = i * cols;
    const classId = Math.round(data[o]!);
    const score = data[o + 1]!;
    if (classId < 0 || !(score >= minScore)) continue;
    out.push({ classId, score, bbox: [data[o + 2]!, data[o + 3]!, data[o + 4]!, data[o + 5]!] });
  }
  return out;
}

/**
 * YOLOv8/v11 head: [4 + C, N] channels first (cx, cy, w, h, then one score per class) or, transposed, [N, 4 + C];
 * YOLOv5 adds an objectness column ([N, 5 + C]). Each anchor keeps its best class; class-wise NMS follows.
 */
export function decodeYoloScores(data: ArrayLike<number>, classes: number, anchors: number, layout: 'channels-first' | 'rows' | 'rows-objectness', minScore: number): RawDetection[] {
  const out: RawDetection[] = [];
  const width = layout === 'rows-objectness' ? 5 + classes : 4 + classes;
  const at = layout === 'channels-first' ? (a: number, c: number) => data[c * anchors + a]! : (a: number, c: number) => data[a * width + c]!;
  const first = layout === 'rows-objectness' ? 5 : 4;
  for (let a = 0; a < anchors; a++) {
    let best = -1;
    let bestScore = -Infinity;
    for (let c = 0; c < classes; c++) {
      const s = at(a, first + c);
      if (s > bestScore) [best, bestScore] = [c, s];
    }
    if (layout === 'rows-objectness') bestScore *= at(a, 4);
    if (!(bestScore >= minScore)) continue;
    const cx = at(a, 0);
    const cy = at(a, 1);
    const w = at(a, 2);
    const h = at(a, 3);
    out.push({ classId: best, score: bestScore, bbox: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2] });
  }
  return out;
}

/** End-to-end YOLO (v10, DocLayout-YOLO, nms=True exports): rows of [x1, y1, x2, y2, score, class id]. */
export function decodeYoloEndToEnd(data: ArrayLike<number>, rows: number, cols: number, minScore: number): RawDetection[] {
  const out: RawDetection[] = [];
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    const score = data[o + 4]!;
    const classId = Math.round(data[o + 5]!);
    if (classId < 0 || !(score >= minScore)) continue;
    out.push({ classId, score, bbox: [data[o]!, data[o + 1]!, data[o + 2]!, data[o + 3]!] });
  }
  return out;
}

/**
 * Class-wise non-maximum suppression: within a class, a box overlapping a better one by more than `iou` goes;
 * across classes only by more than `iouAcross` (the same region called two things: the surer call stays).
 */
export function nonMaxSuppression(dets: readonly RawDetection[], iou: number, iouAcross = 1, maxKeep = 300): RawDetection[] {
  const sorted = [...dets].sort((a, b) => b.score - a.score);
  const kept: RawDetection[] = [];
  for (const d of sorted) {
    if (kept.length >= maxKeep) break;
    if (kept.some((k) => bboxIoU(k.bbox, d.bbox) > (k.classId === d.classId ? iou : iouAcross))) continue;
    kept.push(d);
  }
  return kept;
}
