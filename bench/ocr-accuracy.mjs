// OCR character accuracy on the OmniDocBench pages of the corpus: node bench/ocr-accuracy.mjs
// Ground truth: layout/gt/<page>.md (markdown + HTML tables + LaTeX), reduced to its characters (tags, LaTeX
// commands, markdown marks and whitespace removed, NFKC). OCR text: the lines in their order, same reduction.
// Edit = Levenshtein / max(len) (OmniDocBench's normalised edit distance; also counts reading-order differences);
// recall/precision = multiset overlap of characters (order-free).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ocrImage } from '../dist/engine/vision/ocr/ocr-page.js';
import { corpusDir, readRgba } from './ocr-page-image.mjs';

const root = join(corpusDir(), 'layout');
const pages = readdirSync(join(root, 'gt'))
  .filter((f) => f.startsWith('omnidocbench_') && f.endsWith('.md'))
  .map((f) => f.slice(0, -3))
  .sort();

function reduce(s) {
  return s
    .normalize('NFKC')
    .replace(/<[^>]*>/g, '')
    .replace(/\\[a-zA-Z]+/g, '')
    .replace(/[$#*|{}^_`~]/g, '')
    .replace(/\s+/g, '');
}

function levenshtein(a, b) {
  const A = [...a];
  const B = [...b];
  let prev = new Uint32Array(B.length + 1).map((_, j) => j);
  let cur = new Uint32Array(B.length + 1);
  for (let i = 1; i <= A.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= B.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (A[i - 1] === B[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[B.length];
}

function overlap(a, b) {
  const count = new Map();
  for (const ch of a) count.set(ch, (count.get(ch) ?? 0) + 1);
  let common = 0;
  for (const ch of b) {
    const n = count.get(ch) ?? 0;
    if (n > 0) {
      common++;
      count.set(ch, n - 1);
    }
  }
  return common;
}

const rows = [];
for (const page of pages) {
  const info = JSON.parse(readFileSync(join(root, 'gt', `${page}.json`), 'utf8')).page_info?.page_attribute ?? {};
  const lang = String(info.language ?? '').includes('chinese') ? 'zh' : 'en';
  const img = await readRgba(join(root, 'images', `${page}.jpg`));
  const res = await ocrImage(img);
  const gt = [...reduce(readFileSync(join(root, 'gt', `${page}.md`), 'utf8'))];
  const got = [...reduce(res.lines.map((l) => l.text).join('\n'))];
  const common = overlap(gt, got);
  const row = {
    page: page.replace('omnidocbench_', '').slice(0, 44),
    lang,
    edit: levenshtein(gt, got) / Math.max(1, gt.length, got.length),
    recall: common / Math.max(1, gt.length),
    precision: common / Math.max(1, got.length),
    gtChars: gt.length,
  };
  rows.push(row);
  console.log(`${row.page.padEnd(44)} ${lang} chars ${String(row.gtChars).padStart(5)}  edit ${row.edit.toFixed(3)}  recall ${row.recall.toFixed(3)}  precision ${row.precision.toFixed(3)}`);
}
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
for (const lang of ['zh', 'en']) {
  const rs = rows.filter((r) => r.lang === lang);
  console.log(`${lang}: pages ${rs.length}  mean edit ${mean(rs.map((r) => r.edit)).toFixed(3)}  mean recall ${mean(rs.map((r) => r.recall)).toFixed(3)}  mean precision ${mean(rs.map((r) => r.precision)).toFixed(3)}`);
}
