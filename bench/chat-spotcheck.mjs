// Spot check beyond the FinanceBench sample: other line items and metrics on the same 10-Ks, with the
// expected figures taken by hand from the filings. Usage: npx tsc -b && node bench/chat-spotcheck.mjs
// (reads the page cache written by bench/chat-finqa.mjs, or the PDFs).
import { readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.DOCAI_CORPUS ?? resolve(root, '../shared/corpus');
const cacheDir = process.env.DOCAI_BENCH_CACHE ?? '/tmp/docai-chat-bench-cache';
const readDocument = async (...args) => (await import(join(root, 'dist/engine/vision/read-document.js'))).readDocument(...args);
const { Library } = await import(join(root, 'dist/engine/store/library.js'));
const { answerGrounded } = await import(join(root, 'dist/engine/chat/grounded-answer.js'));

const CASES = [
  ["What was Costco's net income in FY2021?", 5007, ['COSTCO_2021_10K.pdf']],
  ["What is Netflix's current ratio for FY2017?", 1.4, ['NETFLIX_2017_10K.pdf']],
  ["What was 3M's gross margin in 2018?", 49.1, ['3M_2018_10K.pdf']],
  ['What was Best Buy operating income in FY2019?', 1900, ['BESTBUY_2019_10K.pdf']],
  ['What was the effective tax rate of Microsoft in FY2023?', 19.0, ['MICROSOFT_2023_10K.pdf']],
  ['How much did General Mills pay in dividends in FY2019?', 1181.7, ['GENERALMILLS_2019_10K.pdf']],
  ['What was Adobe free cash flow in FY2022?', 7396, ['ADOBE_2022_10K.pdf']],
  ["What was Amazon's operating income in 2017?", 4106, ['AMAZON_2017_10K.pdf']],
  ['What were Pfizer total assets at the end of 2021?', 181476, ['PFIZER_2021_10K.pdf']],
  ['What was Boeing net cash provided by operating activities in 2022?', 3512, ['BOEING_2022_10K.pdf']],
];

const lib = new Library(new Database(':memory:'));
const files = [...new Set(CASES.flatMap((c) => c[2]))];
for (const f of files) {
  const cache = join(cacheDir, f + '.pages.json');
  const doc = existsSync(cache) ? JSON.parse(readFileSync(cache, 'utf8')) : await readDocument(join(corpus, 'fin_qa/pdfs', f), { fileName: f, ocr: 'never' });
  lib.indexDocument({ docId: f, ownerKeyId: 'o', fileName: f, pageCount: doc.pages.length, blobHash: f, pages: doc.pages });
}
const key = { id: 'o', name: 'o', balance: null, owner: true };
let ok = 0;
console.log('| question | expected | answer (first line) | right |');
console.log('|---|---|---|---|');
for (const [q, expected] of CASES) {
  const a = answerGrounded(lib, key, [{ role: 'user', content: q }]);
  const line = a.text.split('\n')[0];
  const nums = [...line.replace(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
  const right = nums.some((n) => Math.abs(n - expected) <= Math.abs(expected) * 0.01);
  if (right) ok++;
  console.log(`| ${q} | ${expected} | ${line.slice(0, 140).replace(/\|/g, '/')} | ${right ? 'yes' : 'no'} |`);
}
console.log(`\n${ok}/${CASES.length} within 1%`);
