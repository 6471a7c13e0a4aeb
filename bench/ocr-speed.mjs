// OCR speed per scanned page: node bench/ocr-speed.mjs [--limit N]
// Pages: corpus business licences and layout pages of at least 1600 px on the long side (A4/Letter at >= 150 dpi).
// Reports wall and CPU seconds of ocrImage per page (CPU time = what one core spends; on a busy shared machine
// it is the fairer figure, wall time includes waiting for the core), model load separately, and peak RSS.
// --profile: per-stage wall/CPU per page (file decode, detector preprocess/run/post-process, classifier, crops,
// recogniser run, CTC decode, ...), mean over the pages of each group. --only SUBSTRING: pages whose name has it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ocrImage } from '../dist/engine/vision/ocr/ocr-page.js';
import { ocrModels } from '../dist/engine/vision/ocr/ocr-models.js';
import { startOcrStageClock, stopOcrStageClock } from '../dist/engine/vision/ocr/ocr-stage-clock.js';
import { corpusDir, readRgba } from './ocr-page-image.mjs';

const limitArg = process.argv.indexOf('--limit');
const limit = limitArg > 0 ? Number(process.argv[limitArg + 1]) : Infinity;
const profile = process.argv.includes('--profile');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? process.argv[onlyArg + 1] : '';
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
const stages = [];
for (const file of files) {
  if (rows.length >= limit) break;
  if (only && !file.includes(only)) continue;
  t0 = performance.now();
  c0 = cpuMs();
  const img = await readRgba(file);
  const decode = { wallMs: performance.now() - t0, cpuMs: cpuMs() - c0, calls: 1 };
  if (Math.max(img.width, img.height) < 1600) continue;
  if (profile) startOcrStageClock();
  t0 = performance.now();
  c0 = cpuMs();
  const res = await ocrImage(img);
  const wall = (performance.now() - t0) / 1000;
  const cpu = (cpuMs() - c0) / 1000;
  if (profile) stages.push({ file, stages: { 'file.decode': decode, ...stopOcrStageClock(), '=ocrImage': { wallMs: wall * 1000, cpuMs: cpu * 1000, calls: 1 } } });
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

if (profile) {
  // Stages named ~x include others (orientation trials run the classifier and recogniser); =ocrImage is the whole call.
  for (const [name, test] of [['business_license', (f) => f.includes('bizlicense')], ['layout', (f) => !f.includes('bizlicense')]]) {
    const ps = stages.filter((p) => test(p.file));
    if (ps.length === 0) continue;
    const names = [...new Set(ps.flatMap((p) => Object.keys(p.stages)))].sort();
    console.log(`\nper-stage mean per page, ${name} (${ps.length} pages)        wall ms    cpu ms   calls`);
    let leafWall = 0;
    let leafCpu = 0;
    for (const n of names) {
      const sum = (k) => ps.reduce((s, p) => s + (p.stages[n]?.[k] ?? 0), 0) / ps.length;
      if (!n.startsWith('~') && !n.startsWith('=') && n !== 'file.decode') {
        leafWall += sum('wallMs');
        leafCpu += sum('cpuMs');
      }
      console.log(`  ${n.padEnd(44)} ${sum('wallMs').toFixed(0).padStart(8)} ${sum('cpuMs').toFixed(0).padStart(9)} ${sum('calls').toFixed(1).padStart(7)}`);
    }
    console.log(`  ${'(sum of OCR leaf stages)'.padEnd(44)} ${leafWall.toFixed(0).padStart(8)} ${leafCpu.toFixed(0).padStart(9)}`);
  }
}
