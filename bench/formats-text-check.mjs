// Snapshot of readDocument output on the first pages of each fin_qa PDF, to show a speed change kept the output.
// Usage: npx tsc -b && node bench/formats-text-check.mjs OUT.json [--pages 10]; then compare two snapshots with
// node bench/formats-text-check.mjs --diff A.json B.json
import { readdirSync, writeFileSync, readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.DOCAI_CORPUS ?? resolve(here, '../../shared/corpus');
if (process.argv[2] === '--diff') {
  const a = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const b = JSON.parse(readFileSync(process.argv[4], 'utf8'));
  let same = 0, diff = 0;
  for (const k of Object.keys(a)) {
    if (JSON.stringify(a[k]) === JSON.stringify(b[k])) same++;
    else { diff++; if (diff <= 5) console.log('differs:', k); }
  }
  console.log(`${same} pages identical, ${diff} differ, ${Object.keys(b).length - Object.keys(a).length} extra`);
  process.exit(diff ? 1 : 0);
}
const i = process.argv.indexOf('--pages');
const maxPages = i >= 0 ? Number(process.argv[i + 1]) : 10;
const { readDocument } = await import('../dist/engine/vision/read-document.js');
const dir = join(corpus, 'fin_qa', 'pdfs');
const out = {};
for (const f of readdirSync(dir).filter((f) => f.endsWith('.pdf')).sort()) {
  const doc = await readDocument(join(dir, f), { fileName: f, ocr: 'never', maxPages });
  for (const p of doc.pages) out[`${f}#${p.pageNumber}`] = p;
}
writeFileSync(process.argv[2], JSON.stringify(out));
console.log(`${Object.keys(out).length} pages written to ${process.argv[2]}`);
