import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import type { RgbaImage } from '../../../../engine/core/image.js';

/** Where the fixture scripts write their files. */
export const GEN = join(import.meta.dirname, '../../../fixtures/generated');

/** A generated fixture image decoded to RGBA by canvas (independently of the engine's own decoders). */
export async function decodeGenerated(name: string): Promise<RgbaImage> {
  const img = await loadImage(readFileSync(join(GEN, name)));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}
