// Prints the OCR lines of one image: node bench/ocr-read-page.mjs IMAGE [--no-orientation]
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ocrImage } from '../dist/engine/vision/ocr/ocr-page.js';

const file = process.argv[2];
if (!file) {
  console.error('usage: node bench/ocr-read-page.mjs IMAGE [--no-orientation]');
  process.exit(2);
}
const img = await loadImage(file);
const canvas = createCanvas(img.width, img.height);
const ctx = canvas.getContext('2d');
ctx.drawImage(img, 0, 0);
const { data } = ctx.getImageData(0, 0, img.width, img.height);
const t0 = performance.now();
const res = await ocrImage({ width: img.width, height: img.height, data }, { detectOrientation: !process.argv.includes('--no-orientation') });
const ms = performance.now() - t0;
console.log(`rotation ${res.rotation} size ${res.width}x${res.height} lines ${res.lines.length} time ${(ms / 1000).toFixed(2)} s`);
for (const l of res.lines) console.log(`${l.confidence.toFixed(2)} [${l.bbox.join(',')}] ${l.text}`);
