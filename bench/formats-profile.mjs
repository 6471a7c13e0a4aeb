// Small driver for profiling readDocument: node --cpu-prof --cpu-prof-dir=/tmp/prof bench/formats-profile.mjs [--pages 50]
import { readdirSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.DOCAI_CORPUS ?? resolve(here, '../../shared/corpus');
const i = process.argv.indexOf('--pages');
const maxPages = i >= 0 ? Number(process.argv[i + 1]) : 50;
const { readDocument } = await import('../dist/engine/vision/read-document.js');
const dir = join(corpus, 'fin_qa', 'pdfs');
const c0 = process.cpuUsage();
const t0 = performance.now();
let pages = 0;
for (const f of readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort()) {
  const doc = await readDocument(join(dir, f), { fileName: f, ocr: 'never', maxPages });
  pages += doc.pages.length;
}
const c = process.cpuUsage(c0);
const cpu = (c.user + c.system) / 1e6;
const wall = (performance.now() - t0) / 1000;
console.log(`${pages} pages, ${wall.toFixed(2)} s wall = ${(pages / wall).toFixed(1)} pages/s, ${cpu.toFixed(2)} CPU-s = ${(pages / cpu).toFixed(1)} pages/CPU-s`);
