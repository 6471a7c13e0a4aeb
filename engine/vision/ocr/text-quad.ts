/**
 * A detected text line as a rotated rectangle: four corners in reading order
 * (top-left, top-right, bottom-right, bottom-left of the text as it reads), in image pixels.
 */
export type Point = [x: number, y: number];
export type Quad = [Point, Point, Point, Point];

export interface RotatedRect {
  cx: number;
  cy: number;
  /** Side lengths along `angle` and across it. */
  w: number;
  h: number;
  /** Direction of the `w` side, radians. */
  angle: number;
}

function cross(o: Point, a: Point, b: Point): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Convex hull (Andrew's monotone chain), counter-clockwise in a y-down frame reversed, no duplicates. */
export function convexHull(points: Point[]): Point[] {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length <= 2) return pts;
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/** Minimum-area enclosing rectangle of a point set (rotating calipers over the hull edges). */
export function minAreaRect(points: Point[]): RotatedRect {
  const hull = convexHull(points);
  if (hull.length === 0) return { cx: 0, cy: 0, w: 0, h: 0, angle: 0 };
  if (hull.length === 1) return { cx: hull[0]![0], cy: hull[0]![1], w: 0, h: 0, angle: 0 };
  let best: RotatedRect | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0) continue;
    const ux = (b[0] - a[0]) / len;
    const uy = (b[1] - a[1]) / len;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const u = p[0] * ux + p[1] * uy;
      const v = -p[0] * uy + p[1] * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const cu = (minU + maxU) / 2;
      const cv = (minV + maxV) / 2;
      best = { cx: cu * ux - cv * uy, cy: cu * uy + cv * ux, w: maxU - minU, h: maxV - minV, angle: Math.atan2(uy, ux) };
    }
  }
  return normalizeRect(best!);
}

/** Same rectangle with the angle folded into (-45, 45] degrees so that `w` is the near-horizontal side. */
export function normalizeRect(r: RotatedRect): RotatedRect {
  let { w, h, angle } = r;
  const quarter = Math.PI / 2;
  while (angle > Math.PI / 4) {
    angle -= quarter;
    [w, h] = [h, w];
  }
  while (angle <= -Math.PI / 4) {
    angle += quarter;
    [w, h] = [h, w];
  }
  return { cx: r.cx, cy: r.cy, w, h, angle };
}

/** Corners of a rectangle: top-left, top-right, bottom-right, bottom-left along its own axes. */
export function rectCorners(r: RotatedRect): Quad {
  const ux = Math.cos(r.angle);
  const uy = Math.sin(r.angle);
  const hw = r.w / 2;
  const hh = r.h / 2;
  const at = (su: number, sv: number): Point => [r.cx + su * hw * ux - sv * hh * uy, r.cy + su * hw * uy + sv * hh * ux];
  return [at(-1, -1), at(1, -1), at(1, 1), at(-1, 1)];
}

/** Rectangle grown by `d` on every side (the DB "unclip" of a rectangle). */
export function growRect(r: RotatedRect, d: number): RotatedRect {
  return { ...r, w: r.w + 2 * d, h: r.h + 2 * d };
}

export function quadBounds(q: Quad): [number, number, number, number] {
  const xs = q.map((p) => p[0]);
  const ys = q.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

export function quadCenter(q: Quad): Point {
  return [(q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4, (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4];
}

/** Length of the reading-direction side and of the side across it. */
export function quadSize(q: Quad): { w: number; h: number } {
  const w = (Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]) + Math.hypot(q[2][0] - q[3][0], q[2][1] - q[3][1])) / 2;
  const h = (Math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1]) + Math.hypot(q[2][0] - q[1][0], q[2][1] - q[1][1])) / 2;
  return { w, h };
}

/** The rectangle a quad's corners describe (first side = `w`). */
export function quadToRect(q: Quad): RotatedRect {
  const c = quadCenter(q);
  const { w, h } = quadSize(q);
  return { cx: c[0], cy: c[1], w, h, angle: Math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0]) };
}

/**
 * Re-orders a rectangle's corners for text that reads left to right in this frame: the near-horizontal
 * side first, starting top-left, clockwise. A tall narrow box stays tall (its short side comes first).
 */
export function orderForReading(q: Quad): Quad {
  return rectCorners(normalizeRect(quadToRect(q)));
}

/** Maps a point of a W x H image into the image turned clockwise by `deg` (0/90/180/270). */
export function rotatePoint(p: Point, deg: 0 | 90 | 180 | 270, width: number, height: number): Point {
  switch (deg) {
    case 0:
      return [p[0], p[1]];
    case 90:
      return [height - p[1], p[0]];
    case 180:
      return [width - p[0], height - p[1]];
    case 270:
      return [p[1], width - p[0]];
  }
}

/** Inverse of rotatePoint: a point of the turned image back to the original W x H image. */
export function unrotatePoint(p: Point, deg: 0 | 90 | 180 | 270, width: number, height: number): Point {
  switch (deg) {
    case 0:
      return [p[0], p[1]];
    case 90:
      return [p[1], height - p[0]];
    case 180:
      return [width - p[0], height - p[1]];
    case 270:
      return [width - p[1], p[0]];
  }
}
