/** A decoded raster: RGBA, 4 bytes per pixel, row-major, top-left origin. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8ClampedArray | Uint8Array;
}
