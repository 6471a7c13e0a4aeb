import type { BBox } from '../../core/geometry.js';
import type { ImageRegion, RuleLine } from '../../core/page.js';
import { applyMatrix, multiplyMatrix, type Matrix } from './pdf-matrix.js';

/** pdf.js operator codes used here (pdfjs-dist 5 `OPS`). */
export interface PdfOps {
  save: number;
  restore: number;
  transform: number;
  setLineWidth: number;
  constructPath: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
  setFillRGBColor: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  beginAnnotation: number;
  endAnnotation: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
  paintImageXObjectRepeat: number;
  paintSolidColorImageMask: number;
}

/** pdf.js path drawing codes inside constructPath (`DrawOPS`). */
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;


const MAX_RULES = 20_000;
const MAX_IMAGES = 2_000;



export interface PageGraphics {
  rules: RuleLine[];
  images: ImageRegion[];
  /** Painted paths that contain curves (glyph outlines, charts, logos). */
  curvedPaths: number;
}

/**
 * Ruling lines and image regions from a page's operator list, in page pixels. Stroked horizontal and
 * vertical segments are rules; thin filled rectangles are rules too (many producers draw table lines
 * that way); larger coloured fills contribute their four edges (shaded cells and header bands).
 */
export function collectPageGraphics(
  fnArray: readonly number[],
  argsArray: readonly unknown[],
  OPS: PdfOps,
  viewport: number[],
  pageWidth: number,
  pageHeight: number,
): PageGraphics {
  const rules: RuleLine[] = [];
  const images: ImageRegion[] = [];
  let curvedPaths = 0;
  let ctm = viewport.slice(0, 6) as Matrix;
  let lineWidth = 1;
  let fillColor = '#000000';
  const stack: { ctm: Matrix; lineWidth: number; fillColor: string }[] = [];
  const pageArea = pageWidth * pageHeight;
  const scale = () => Math.sqrt(Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]));

  const addRule = (x1: number, y1: number, x2: number, y2: number, width: number) => {
    if (rules.length >= MAX_RULES) return;
    const horizontal = Math.abs(y2 - y1) <= 1.5;
    const vertical = Math.abs(x2 - x1) <= 1.5;
    if (!horizontal && !vertical) return;
    if (horizontal) {
      const y = (y1 + y2) / 2;
      const [a, b] = x1 < x2 ? [x1, x2] : [x2, x1];
      if (b - a < 4) return;
      rules.push({ x1: r1(a), y1: r1(y), x2: r1(b), y2: r1(y), width: r1(Math.max(width, 0.5)) });
    } else {
      const x = (x1 + x2) / 2;
      const [a, b] = y1 < y2 ? [y1, y2] : [y2, y1];
      if (b - a < 4) return;
      rules.push({ x1: r1(x), y1: r1(a), x2: r1(x), y2: r1(b), width: r1(Math.max(width, 0.5)) });
    }
  };

  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) {
      stack.push({ ctm, lineWidth, fillColor });
    } else if (fn === OPS.restore) {
      const s = stack.pop();
      if (s) ({ ctm, lineWidth, fillColor } = s);
    } else if (fn === OPS.transform && args) {
      ctm = multiplyMatrix(ctm, args as number[]);
    } else if (fn === OPS.setLineWidth && args) {
      lineWidth = Number(args[0]) || 0;
    } else if (fn === OPS.setFillRGBColor && args) {
      fillColor = String(args[0]).toLowerCase();
    } else if (fn === OPS.paintFormXObjectBegin && args) {
      stack.push({ ctm, lineWidth, fillColor });
      const m = args[0] as number[] | null;
      if (m && m.length === 6) ctm = multiplyMatrix(ctm, m);
    } else if (fn === OPS.beginAnnotation && args) {
      stack.push({ ctm, lineWidth, fillColor });
      ctm = viewport.slice(0, 6) as Matrix;
      lineWidth = 1;
      fillColor = '#000000';
      for (const m of [args[2], args[3]] as (number[] | null)[]) if (m && m.length === 6) ctm = multiplyMatrix(ctm, m);
    } else if (fn === OPS.endAnnotation) {
      const s = stack.pop();
      if (s) ({ ctm, lineWidth, fillColor } = s);
    } else if (fn === OPS.paintFormXObjectEnd) {
      const s = stack.pop();
      if (s) ({ ctm, lineWidth, fillColor } = s);
    } else if (fn === OPS.constructPath && args) {
      const paint = args[0] as number;
      const data = (args[1] as ArrayLike<number>[] | null)?.[0];
      if (!data || typeof (data as { length?: number }).length !== 'number') continue;
      const stroked = paint === OPS.stroke || paint === OPS.closeStroke || paint === OPS.fillStroke || paint === OPS.eoFillStroke || paint === OPS.closeFillStroke || paint === OPS.closeEOFillStroke;
      const filled = paint === OPS.fill || paint === OPS.eoFill || paint === OPS.fillStroke || paint === OPS.eoFillStroke || paint === OPS.closeFillStroke || paint === OPS.closeEOFillStroke;
      if (!stroked && !filled) continue;
      for (let k = 0; k < data.length; ) {
        const op = data[k]!;
        if (op === CURVE || op === QUAD) {
          curvedPaths++;
          break;
        }
        k += op === MOVE || op === LINE ? 3 : op === CLOSE ? 1 : data.length;
      }
      const strokeWidth = Math.max(lineWidth * scale(), 1);
      walkPath(data, ctm, (points, closed) => {
        if (stroked) {
          for (let k = 1; k < points.length; k++) addRule(points[k - 1]![0], points[k - 1]![1], points[k]![0], points[k]![1], strokeWidth);
          if (closed && points.length > 2) addRule(points[points.length - 1]![0], points[points.length - 1]![1], points[0]![0], points[0]![1], strokeWidth);
        }
        if (filled) {
          const rect = axisRect(points);
          if (!rect) return;
          const [x1, y1, x2, y2] = rect;
          const w = x2 - x1;
          const h = y2 - y1;
          if (h <= 4 && w >= 4) addRule(x1, (y1 + y2) / 2, x2, (y1 + y2) / 2, Math.max(h, 0.5));
          else if (w <= 4 && h >= 4) addRule((x1 + x2) / 2, y1, (x1 + x2) / 2, y2, Math.max(w, 0.5));
          else if (w > 4 && h > 4 && fillColor !== '#ffffff' && w * h < 0.9 * pageArea) {
            addRule(x1, y1, x2, y1, 1);
            addRule(x1, y2, x2, y2, 1);
            addRule(x1, y1, x1, y2, 1);
            addRule(x2, y1, x2, y2, 1);
          }
        }
      });
    } else if (
      fn === OPS.paintImageXObject ||
      fn === OPS.paintInlineImageXObject ||
      fn === OPS.paintImageMaskXObject ||
      fn === OPS.paintImageXObjectRepeat ||
      fn === OPS.paintSolidColorImageMask
    ) {
      if (images.length >= MAX_IMAGES) continue;
      const corners = [applyMatrix(ctm, 0, 0), applyMatrix(ctm, 1, 0), applyMatrix(ctm, 0, 1), applyMatrix(ctm, 1, 1)];
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      const box: BBox = [
        r1(Math.max(0, Math.min(...xs))),
        r1(Math.max(0, Math.min(...ys))),
        r1(Math.min(pageWidth, Math.max(...xs))),
        r1(Math.min(pageHeight, Math.max(...ys))),
      ];
      // Tiny images (bullets, spacer pixels) are not figures.
      if (box[2] - box[0] >= 8 && box[3] - box[1] >= 8) images.push({ bbox: box });
    }
  }
  return { rules, images, curvedPaths };
}

/** Calls `onSubpath` with each subpath's points in page pixels (curves flattened to their end points). */
function walkPath(data: ArrayLike<number>, ctm: Matrix, onSubpath: (points: Array<[number, number]>, closed: boolean) => void): void {
  let points: Array<[number, number]> = [];
  let i = 0;
  const flush = (closed: boolean) => {
    if (points.length > 1) onSubpath(points, closed);
    points = [];
  };
  while (i < data.length) {
    const op = data[i++];
    if (op === MOVE) {
      flush(false);
      points.push(applyMatrix(ctm, data[i]!, data[i + 1]!));
      i += 2;
    } else if (op === LINE) {
      points.push(applyMatrix(ctm, data[i]!, data[i + 1]!));
      i += 2;
    } else if (op === CURVE) {
      // A curve is never a ruling line: break the polyline there.
      const end = applyMatrix(ctm, data[i + 4]!, data[i + 5]!);
      flush(false);
      points.push(end);
      i += 6;
    } else if (op === QUAD) {
      const end = applyMatrix(ctm, data[i + 2]!, data[i + 3]!);
      flush(false);
      points.push(end);
      i += 4;
    } else if (op === CLOSE) {
      const start = points[0];
      flush(true);
      if (start) points.push(start);
    } else {
      break;
    }
  }
  flush(false);
}

/** The axis-aligned rectangle a closed 4- or 5-point subpath draws, or null. */
function axisRect(points: Array<[number, number]>): BBox | null {
  let pts = points;
  if (pts.length === 5 && Math.abs(pts[0]![0] - pts[4]![0]) < 0.5 && Math.abs(pts[0]![1] - pts[4]![1]) < 0.5) pts = pts.slice(0, 4);
  if (pts.length === 2) {
    // rectangle ops of zero width/height come through as moveTo + lineTo
    const [a, b] = pts as [[number, number], [number, number]];
    return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
  }
  if (pts.length !== 4) return null;
  for (let k = 0; k < 4; k++) {
    const p = pts[k]!;
    const q = pts[(k + 1) % 4]!;
    if (Math.abs(p[0] - q[0]) > 0.5 && Math.abs(p[1] - q[1]) > 0.5) return null;
  }
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

function r1(n: number): number {
  return Math.round(n * 10) / 10;
}
