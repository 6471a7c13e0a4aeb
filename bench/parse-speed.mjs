// Parse speed on born-digital PDFs (../shared/corpus/fin_qa/pdfs): the first 50 pages of several 10-K filings,
// read (text layer, no OCR) and built in lite and pro mode, in this process. Prints pages/s per file and overall:
// end to end (readDocument + buildParseResult) and for the parse step alone.
// Usage: npx tsc -b && node bench/parse-speed.mjs [--files N] [--pages N]
import { readdirSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.DOCAI_CORPUS ?? resolve(here, '../../shared/corpus');
const { readDocument } = await import('../dist/engine/vision/read-document.js');
const { buildParseResult } = await import('../dist/engine/parse/build-result.js');
const args = process.argv.slice(2);
const nFiles = args.includes('--files') ? Number(args[args.indexOf('--files') + 1]) : 4;
const nPages = args.includes('--pages') ? Number(args[args.indexOf('--pages') + 1]) : 50;

const src = join(corpus, 'fin_qa/pdfs');
const files = readdirSync(src).filter((f) => f.endsWith('.pdf')).sort();
const cut = join(tmpdir(), 'docai-bench-first-pages');
mkdirSync(cut, { recursive: true });

async function firstPages(file) {
  const out = join(cut, `${nPages}-${file}`);
  if (existsSync(out)) return out;
  // poppler cuts the first pages out (pdf-lib refuses some of these filings' cross-reference tables)
  const parts = join(cut, `part-${file}`);
  mkdirSync(parts, { recursive: true });
  execFileSync('pdfseparate',  ['-f', '1', '-l', String(nPages), join(src, file), join(parts, 'p%d.pdf')]);
  const pages = readdirSync(parts).sort((a, b) => Number(a.slice(1, -4)) - Number(b.slice(1, -4))).map((p) => join(parts, p));
  execFileSync('pdfunite', [...pages, out], { stdio: 'ignore' });
  return out;
}

const rows = [];
const tot = { pages: 0, read: 0, lite: 0, pro: 0 };
for (const f of files) {
  if (rows.length >= nFiles) break;
  // Filings poppler cannot cut (owner-password encryption) are read whole; the first pages are kept.
  let path = join(src, f);
  try {
    path = await firstPages(f);
  } catch {
    console.error(`${f}: read whole (poppler cannot rewrite it); read time scaled to the first ${nPages} pages`);
  }
  // one warm-up read so that the first file does not pay for loading pdf.js
  if (rows.length === 0) await readDocument(path, { fileName: f, ocr: 'never' });
  let t = performance.now();
  const doc = await readDocument(path, { fileName: f, ocr: 'never' });
  let read = performance.now() - t;
  if (doc.pages.length > nPages) {
    read *= nPages / doc.pages.length;
    doc.pages = doc.pages.slice(0, nPages);
  }
  if (rows.length === 0) buildParseResult(doc, f, 'pro'); // warm-up: JIT
  t = performance.now();
  buildParseResult(doc, f, 'lite');
  const lite = performance.now() - t;
  t = performance.now();
  buildParseResult(doc, f, 'pro');
  const pro = performance.now() - t;
  const n = doc.pages.length;
  tot.pages += n; tot.read += read; tot.lite += lite; tot.pro += pro;
  const ps = (ms) => ((n / ms) * 1000).toFixed(1);
  rows.push([f.padEnd(24), String(n).padStart(5), ps(read).padStart(8), ps(lite).padStart(9), ps(pro).padStart(9), ps(read + lite).padStart(10), ps(read + pro).padStart(10)]);
  console.error(rows[rows.length - 1].join(' '));
}
const ps = (ms) => ((tot.pages / ms) * 1000).toFixed(1);
console.log('\nfile                     pages  read p/s  lite p/s   pro p/s  lite e2e   pro e2e   (p/s = pages per second)');
for (const r of rows) console.log(r.join(' '));
console.log(['TOTAL'.padEnd(24), String(tot.pages).padStart(5), ps(tot.read).padStart(8), ps(tot.lite).padStart(9), ps(tot.pro).padStart(9), ps(tot.read + tot.lite).padStart(10), ps(tot.read + tot.pro).padStart(10)].join(' '));
