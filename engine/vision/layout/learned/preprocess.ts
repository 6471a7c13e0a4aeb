import type { RgbaImage } from '../../../core/image.js';
import type { PaddlePreprocess } from './model-sidecar.js';

/**
 * Page image -> model input tensor (planar RGB, float32, NCHW with N = 1), and the numbers that take the model's
 * boxes back to image pixels: image x = (input x - padX) / scaleX.
 */
export interface ModelInput {
  data: Float32Array;
  /** Tensor height and width. */
  height: number;
  width: number;
  /** Size of the resized image inside the tensor (smaller than the tensor when letterboxed). */
  innerHeight: number;
  innerWidth: number;
  scaleX: number;
  scaleY: number;
  padX: number;
  padY: number;
}

/**
 * Bilinear resampling (pixel centres aligned, as cv2.INTER_LINEAR) of `img` into a `innerW x innerH` area placed at
 * (padX, padY) of a `width x height` tensor; `value(channel, byte)` normalises each sample; `fill` per channel
 * fills the rest.
 */
function sample(img: RgbaImage, width: number, height: number, innerW: number, innerH: number, padX: number, padY: number, value: (c: number, v: number) => number, fill: [number, number, number]): Float32Array {
  const out = new Float32Array(3 * width * height);
  const plane = width * height;
  for (let c = 0; c < 3; c++) out.fill(fill[c]!, c * plane, (c + 1) * plane);
  const { width: W, height: H, data } = img;
  const fx = W / innerW;
  const fy = H / innerH;
  // Per output column: the two source columns and the weight of the right one.
  const x0s = new Int32Array(innerW);
  const x1s = new Int32Array(innerW);
  const wxs = new Float32Array(innerW);
  for (let x = 0; x < innerW; x++) {
    const sx = Math.min(W - 1, Math.max(0, (x + 0.5) * fx - 0.5));
    x0s[x] = Math.floor(sx);
    x1s[x] = Math.min(W - 1, x0s[x]! + 1);
    wxs[x] = sx - x0s[x]!;
  }
  for (let y = 0; y < innerH; y++) {
    const sy = Math.min(H - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(sy);
    const y1 = Math.min(H - 1, y0 + 1);
    const wy = sy - y0;
    const r0 = y0 * W * 4;
    const r1 = y1 * W * 4;
    const rowOut = (y + padY) * width + padX;
    for (let x = 0; x < innerW; x++) {
      const a = r0 + x0s[x]! * 4;
      const b = r0 + x1s[x]! * 4;
      const cc = r1 + x0s[x]! * 4;
      const d = r1 + x1s[x]! * 4;
      const wx = wxs[x]!;
      for (let c = 0; c < 3; c++) {
        const top = data[a + c]! + (data[b + c]! - data[a + c]!) * wx;
        const bottom = data[cc + c]! + (data[d + c]! - data[cc + c]!) * wx;
        out[c * plane + rowOut + x] = value(c, top + (bottom - top) * wy);
      }
    }
  }
  return out;
}

/** The size Paddle's Resize gives an image of W x H ([height, width] target; keep_ratio fits the short side). */
export function paddleResizedSize(W: number, H: number, p: PaddlePreprocess): { width: number; height: number; scaleX: number; scaleY: number } {
  if (!p.targetSize) return { width: W, height: H, scaleX: 1, scaleY: 1 };
  const [th, tw] = p.targetSize;
  if (!p.keepRatio) return { width: tw, height: th, scaleX: tw / W, scaleY: th / H };
  let s = Math.min(th, tw) / Math.min(W, H);
  if (Math.round(s * Math.max(W, H)) > Math.max(th, tw)) s = Math.max(th, tw) / Math.max(W, H);
  return { width: Math.round(W * s), height: Math.round(H * s), scaleX: s, scaleY: s };
}

/**
 * PaddleDetection / PaddleX preprocessing: Resize (target_size, keep_ratio), NormalizeImage (is_scale, mean/std),
 * Permute. `fixed` is the tensor size the graph insists on ([height, width]), which wins over the yml.
 */
export function paddleInput(img: RgbaImage, p: PaddlePreprocess, fixed: [number, number] | null): ModelInput {
  const size = fixed
    ? { width: fixed[1], height: fixed[0], scaleX: fixed[1] / img.width, scaleY: fixed[0] / img.height }
    : paddleResizedSize(img.width, img.height, p);
  const k = p.isScale ? 1 / 255 : 1;
  const value = p.normType === 'mean_std' ? (c: number, v: number) => (v * k - p.mean[c]!) / p.std[c]! : (_c: number, v: number) => v * k;
  const data = sample(img, size.width, size.height, size.width, size.height, 0, 0, value, [0, 0, 0]);
  return { data, width: size.width, height: size.height, innerWidth: size.width, innerHeight: size.height, scaleX: size.scaleX, scaleY: size.scaleY, padX: 0, padY: 0 };
}

/** Ultralytics letterbox: fit inside [height, width] keeping the ratio, centred on grey 114, scaled to 0..1. */
export function letterboxInput(img: RgbaImage, size: [number, number]): ModelInput {
  const [h, w] = size;
  const r = Math.min(h / img.height, w / img.width);
  const innerW = Math.max(1, Math.round(img.width * r));
  const innerH = Math.max(1, Math.round(img.height * r));
  const padX = Math.max(0, Math.round((w - innerW) / 2 - 0.1));
  const padY = Math.max(0, Math.round((h - innerH) / 2 - 0.1));
  const grey = 114 / 255;
  const data = sample(img, w, h, innerW, innerH, padX, padY, (_c, v) => v / 255, [grey, grey, grey]);
  return { data, width: w, height: h, innerWidth: innerW, innerHeight: innerH, scaleX: r, scaleY: r, padX, padY };
}
