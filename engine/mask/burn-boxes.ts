import type { BBox } from '../core/geometry.js';
import type { RgbaImage } from '../core/image.js';

/** Fills each box with opaque black in place (the pixels under it are gone, not hidden). */
export function burnBoxes(image: RgbaImage, boxes: readonly BBox[]): void {
  const { width, height, data } = image;
  for (const b of boxes) {
    const x1 = Math.max(0, Math.floor(b[0]));
    const y1 = Math.max(0, Math.floor(b[1]));
    const x2 = Math.min(width, Math.ceil(b[2]));
    const y2 = Math.min(height, Math.ceil(b[3]));
    for (let y = y1; y < y2; y++) {
      let o = (y * width + x1) * 4;
      for (let x = x1; x < x2; x++) {
        data[o] = 0;
        data[o + 1] = 0;
        data[o + 2] = 0;
        data[o + 3] = 255;
        o += 4;
      }
    }
  }
}

/**
 * Maps a box from page space (the upright page the text lines refer to, pageW x pageH) to the pixels of
 * the raster as stored (rasterW x rasterH), undoing the page's rotation: the raster was turned `rotation`
 * degrees clockwise (a quarter turn plus any deskew) to make the page upright.
 */
export function pageBoxToRaster(
  box: BBox,
  pageW: number,
  pageH: number,
  rotation: number,
  rasterW: number,
  rasterH: number,
): BBox {
  const quarter = ((Math.round(rotation / 90) * 90) % 360 + 360) % 360;
  const residual = rotation - Math.round(rotation / 90) * 90;
  // Upright size of the raster after the quarter turn.
  const upW = quarter === 90 || quarter === 270 ? rasterH : rasterW;
  const upH = quarter === 90 || quarter === 270 ? rasterW : rasterH;
  const sx = upW / pageW;
  const sy = upH / pageH;
  let corners: Array<[number, number]> = [
    [box[0] * sx, box[1] * sy],
    [box[2] * sx, box[1] * sy],
    [box[2] * sx, box[3] * sy],
    [box[0] * sx, box[3] * sy],
  ];
  if (Math.abs(residual) > 0.05) {
    // Undo the deskew: turn the corners back about the page centre.
    const a = (-residual * Math.PI) / 180;
    const cx = upW / 2;
    const cy = upH / 2;
    corners = corners.map(([x, y]) => [
      cx + (x - cx) * Math.cos(a) - (y - cy) * Math.sin(a),
      cy + (x - cx) * Math.sin(a) + (y - cy) * Math.cos(a),
    ]);
  }
  const back = corners.map(([X, Y]): [number, number] => {
    switch (quarter) {
      case 90:
        return [Y, rasterH - X];
      case 180:
        return [rasterW - X, rasterH - Y];
      case 270:
        return [rasterW - Y, X];
      default:
        return [X, Y];
    }
  });
  const xs = back.map((c) => c[0]);
  const ys = back.map((c) => c[1]);
  return [
    Math.max(0, Math.floor(Math.min(...xs))),
    Math.max(0, Math.floor(Math.min(...ys))),
    Math.min(rasterW, Math.ceil(Math.max(...xs))),
    Math.min(rasterH, Math.ceil(Math.max(...ys))),
  ];
}
