// Shared by the OCR benches: decode an image file into the engine's RgbaImage.
import { readFileSync } from 'node:fs';
import { createCanvas, loadImage } from '@napi-rs/canvas';

export async function readRgba(path) {
  const img = await loadImage(readFileSync(path));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

export function corpusDir() {
  return process.env.DOCAI_CORPUS ?? new URL('../../shared/corpus/', import.meta.url).pathname;
}
