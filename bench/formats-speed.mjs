// Speed of readDocument on born-digital PDFs: pages per second, first 50 pages of each file.
// Usage: npx tsc -b && node bench/formats-speed.mjs [--workers 2] [--pages 50]
// Reads $DOCAI_CORPUS/fin_qa/pdfs/*.pdf (default ../shared/corpus relative to the repo root).
import { readdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.DOCAI_CORPUS ?? resolve(here, '../../shared/corpus');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const maxPages = arg('--pages', 50);
const workers = arg('--workers', 2);

async function readFiles(files) {
  const { readDocument } = await import('../dist/engine/vision/read-document.js');
  const rows = [];
  for (const f of files) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const doc = await readDocument(f, { fileName: f, ocr: 'auto', maxPages });
    const ms = performance.now() - t0;
    const c1 = process.cpuUsage(c0);
    const cpuMs = (c1.user + c1.system) / 1000;
    const ocrPages = doc.pages.filter((p) => p.ocr).length;
    const lines = doc.pages.reduce((s, p) => s + p.lines.length, 0);
    const rules = doc.pages.reduce((s, p) => s + p.rules.length, 0);
    rows.push({ file: f.split('/').pop(), pages: doc.pages.length, ms, cpuMs, ocrPages, lines, rules });
  }
  return rows;
}

if (process.argv[2] === '--child') {
  process.on('message', async (files) => {
    process.send(await readFiles(files));
    process.exit(0);
  });
} else {
  const dir = join(corpus, 'fin_qa', 'pdfs');
  const files = readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort().map((f) => join(dir, f));
  // One process first: per-file figures without contention.
  const t0 = performance.now();
  const single = await readFiles(files);
  const singleMs = performance.now() - t0;
  // Wall time depends on what else the machine runs; CPU time per page is the steadier figure.
  console.log('file'.padEnd(28), 'pages', ' wall ms', ' pages/s', '  cpu ms', 'pages/cpu-s', 'ocr', ' lines', ' rules');
  for (const r of single) console.log(r.file.padEnd(28), String(r.pages).padStart(5), String(Math.round(r.ms)).padStart(8), (r.pages / (r.ms / 1000)).toFixed(1).padStart(8), String(Math.round(r.cpuMs)).padStart(8), (r.pages / (r.cpuMs / 1000)).toFixed(1).padStart(11), String(r.ocrPages).padStart(3), String(r.lines).padStart(6), String(r.rules).padStart(6));
  const totalPages = single.reduce((s, r) => s + r.pages, 0);
  const totalCpu = single.reduce((s, r) => s + r.cpuMs, 0);
  console.log(`1 process : ${totalPages} pages in ${(singleMs / 1000).toFixed(2)} s wall = ${(totalPages / (singleMs / 1000)).toFixed(1)} pages/s; ${(totalCpu / 1000).toFixed(2)} CPU-s = ${(totalPages / (totalCpu / 1000)).toFixed(1)} pages per CPU-second`);
  // Then N processes splitting the files, as the worker pool does.
  const t1 = performance.now();
  const parts = Array.from({ length: workers }, (_, i) => files.filter((_, k) => k % workers === i));
  const results = await Promise.all(
    parts.map(
      (part) =>
        new Promise((res, rej) => {
          const child = fork(fileURLToPath(import.meta.url), ['--child']);
          child.on('message', res);
          child.on('error', rej);
          child.send(part);
        }),
    ),
  );
  const multiMs = performance.now() - t1;
  const multiPages = results.flat().reduce((s, r) => s + r.pages, 0);
  console.log(`${workers} processes: ${multiPages} pages in ${(multiMs / 1000).toFixed(2)} s = ${(multiPages / (multiMs / 1000)).toFixed(1)} pages/s (includes process start)`);
}
