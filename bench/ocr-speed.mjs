// OCR speed per scanned page: node bench/ocr-speed.mjs [--limit N]
// Pages: corpus business licences and layout pages of at least 1600 px on the long side (A4/Letter at >= 150 dpi).
// Reports wall and CPU seconds of ocrImage per page (CPU time = what one core spends; on a busy shared machine
// it is the fairer figure, wall time includes waiting for the core), model load separately, and peak RSS.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ocrImage } from '../dist/engine/vision/ocr/ocr-page.js';
import { ocrModels } from '../dist/engine/vision/ocr/ocr-models.js';
import { corpusDir, readRgba } from './ocr-page-image.mjs';

const limitArg = process.argv.indexOf('--limit');
const limit = limitArg > 0 ? Number(process.argv[limitArg + 1]) : Infinity;
const root = corpusDir();
const files = [];
for (const sub of ['business_license/images', 'layout/images']) {
  for (const f of readdirSync(join(root, sub)).sort()) if (/\.(jpe?g|png)$/i.test(f)) files.push(join(root, sub, f));
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let t0 = performance.now();
let c0 = cpuMs();
await ocrModels();
console.log(`model load: wall ${((performance.now() - t0) / 1000).toFixed(2)} s, cpu ${((cpuMs() - c0) / 1000).toFixed(2)} s`);

const rows = [];
for (const file of files) {
  if (rows.length >= limit) break;
  const img = await readRgba(file);
  if (Math.max(img.width, img.height) < 1600) continue;
  t0 = performance.now();
  c0 = cpuMs();
  const res = await ocrImage(img);
  const wall = (performance.now() - t0) / 1000;
  const cpu = (cpuMs() - c0) / 1000;
  const chars = res.lines.reduce((s, l) => s + l.text.length, 0);
  rows.push({ file: file.split('/').pop(), size: `${img.width}x${img.height}`, lines: res.lines.length, chars, rotation: res.rotation, wall, cpu });
  const r = rows[rows.length - 1];
  console.log(`${r.file.slice(0, 48).padEnd(48)} ${r.size.padStart(9)} lines ${String(r.lines).padStart(4)} chars ${String(r.chars).padStart(5)} rot ${String(r.rotation).padStart(3)} wall ${wall.toFixed(2)} s cpu ${cpu.toFixed(2)} s`);
}
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const group = (name, rs) =>
  console.log(
    `${name.padEnd(18)} pages ${String(rs.length).padStart(3)}  median wall ${median(rs.map((r) => r.wall)).toFixed(2)} s  median cpu ${median(rs.map((r) => r.cpu)).toFixed(2)} s  cpu per 1000 chars ${(rs.reduce((s, r) => s + r.cpu, 0) / Math.max(1, rs.reduce((s, r) => s + r.chars, 0)) * 1000).toFixed(2)} s`,
  );
console.log('');
group('business_license', rows.filter((r) => r.file.startsWith('bizlicense')));
group('layout', rows.filter((r) => !r.file.startsWith('bizlicense')));
group('all', rows);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load average ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')} on ${(await import('node:os')).cpus().length} cores`);
