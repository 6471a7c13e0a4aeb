// Layout accuracy on ../shared/corpus/layout (rules: corpus README "How figures are scored").
// Region F1 at IoU 0.5 per type (PubLayNet + OmniDocBench pages, pro mode on each page image) and normalised
// edit distance of the page text against OmniDocBench .md, Chinese (and mixed) pages apart from English ones.
// Usage: npx tsc -b && node bench/layout-corpus.mjs [--pdf] [--only SUBSTR]
//   --pdf: DocBank pages also parsed from their PDF page (text layer) for an extra text-only row.
import { readFileSync, existsSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.DOCAI_CORPUS ?? resolve(here, '../../shared/corpus');
const { readDocument } = await import('../dist/engine/vision/read-document.js');
const { buildParseResult } = await import('../dist/engine/parse/build-result.js');
const { analyseRaster } = await import('../dist/engine/vision/raster/analyse-raster.js');
const { decodeImagePages } = await import('../dist/engine/formats/image-decode.js');
const { rotateImage, flattenAlpha } = await import('../dist/engine/vision/ocr/page-raster.js');

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : null;
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
const entries = (manifest.entries ?? manifest).filter((e) => e.kind === 'layout' && (!only || e.id.includes(only)));

const TYPES = ['Text', 'Title', 'Table', 'Figure'];
const PUB = { 1: 'Text', 2: 'Title', 3: 'Text', 4: 'Table', 5: 'Figure' };
const OMNI = { title: 'Title', text_block: 'Text', table: 'Table', figure: 'Figure' };

function iou(a, b) {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const i = w * h;
  return i / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i);
}

function groundTruth(entry) {
  const gtPath = join(corpus, entry.ground_truth.find((p) => p.endsWith('.json')) ?? '');
  if (!existsSync(gtPath) || !gtPath.endsWith('.json')) return null;
  const gt = JSON.parse(readFileSync(gtPath, 'utf8'));
  if (entry.id.startsWith('publaynet')) {
    return { regions: gt.annotations.map((a) => ({ type: PUB[a.category_id], box: [a.bbox[0], a.bbox[1], a.bbox[0] + a.bbox[2], a.bbox[1] + a.bbox[3]] })), ignore: [] };
  }
  if (entry.id.startsWith('omnidocbench')) {
    const regions = [];
    const ignore = [];
    for (const d of gt.layout_dets) {
      const xs = d.poly.filter((_, i) => i % 2 === 0);
      const ys = d.poly.filter((_, i) => i % 2 === 1);
      const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      if (OMNI[d.category_type]) regions.push({ type: OMNI[d.category_type], box });
      else ignore.push(box);
    }
    return { regions, ignore, language: gt.page_info?.page_attribute?.language ?? '' };
  }
  return null;
}

function predictedRegions(result) {
  const out = [];
  for (const n of result.nodes) {
    const cbs = n.composing_blocks;
    if (!cbs.length) continue;
    const sx = 1, sy = 1; // layout_width/height are the JPEG's own pixels for image input
    const box = [Math.min(...cbs.map((c) => c.coordinates[0] * sx)), Math.min(...cbs.map((c) => c.coordinates[1] * sy)), Math.max(...cbs.map((c) => c.coordinates[2] * sx)), Math.max(...cbs.map((c) => c.coordinates[3] * sy))];
    out.push({ type: n.type, box });
  }
  return out;
}

function score(pred, gt, tally) {
  const page = {};
  for (const type of TYPES) {
    const P = pred.filter((p) => p.type === type);
    const G = gt.regions.filter((g) => g.type === type);
    const pairs = [];
    P.forEach((p, i) => G.forEach((g, j) => { const v = iou(p.box, g.box); if (v >= 0.5) pairs.push([v, i, j]); }));
    pairs.sort((a, b) => b[0] - a[0]);
    const pm = new Set(), gm = new Set();
    for (const [, i, j] of pairs) if (!pm.has(i) && !gm.has(j)) { pm.add(i); gm.add(j); }
    let fp = 0;
    P.forEach((p, i) => { if (!pm.has(i) && !gt.ignore.some((b) => iou(p.box, b) >= 0.5)) fp++; });
    const t = (tally[type] ??= { tp: 0, fp: 0, fn: 0 });
    t.tp += pm.size; t.fp += fp; t.fn += G.length - gm.size;
    page[type] = `${pm.size}/${fp}/${G.length - gm.size}`;
  }
  return page;
}

function stripMarkup(s) {
  return s.replace(/<[^>]+>/g, '').replace(/\$\$[\s\S]*?\$\$/g, '').replace(/\$[^$]*\$/g, '').replace(/[#*|\\>\-_\t]/g, '').replace(/\s+/g, '');
}

function levenshtein(a, b) {
  const A = [...a], B = [...b];
  if (!A.length) return B.length;
  let prev = Array.from({ length: B.length + 1 }, (_, i) => i);
  for (let i = 1; i <= A.length; i++) {
    const cur = [i];
    for (let j = 1; j <= B.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (A[i - 1] === B[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[B.length];
}

// OCR of a page image takes seconds: the page model is cached (by path, size and mtime) so that layout
// changes can be measured again without OCR. DOCAI_BENCH_NOCACHE=1 reads every page afresh.
const cacheDir = join(tmpdir(), 'docai-bench-pages');
mkdirSync(cacheDir, { recursive: true });
// A cached OCR page keeps its OCR lines, but its rules and graphics are found again from the image (as
// readDocument's ocrPage does), so that the raster analysis can change without OCR running again.
// DOCAI_BENCH_RASTER=0 leaves the cached rules and graphics as they are (to compare with and without).
const rasterMs = [];
async function readPages(path) {
  const st = statSync(path);
  const key = join(cacheDir, `${path.split('/').pop()}.${st.size}.${Math.round(st.mtimeMs)}.json`);
  if (!process.env.DOCAI_BENCH_NOCACHE && existsSync(key)) {
    const doc = JSON.parse(readFileSync(key, 'utf8'));
    if (process.env.DOCAI_BENCH_RASTER !== '0' && doc.pages.some((p) => p.ocr)) {
      const images = await decodeImagePages(path, doc.format);
      for (const [i, p] of doc.pages.entries()) {
        if (!p.ocr || !images[i]) continue;
        const t0 = performance.now();
        const upright = rotateImage(flattenAlpha(images[i]), p.rotation);
        const r = analyseRaster(upright, p.lines);
        rasterMs.push(performance.now() - t0);
        p.rules = r.rules;
        p.images = r.images;
      }
    }
    return doc;
  }
  const doc = await readDocument(path, { fileName: path.split('/').pop() });
  writeFileSync(key, JSON.stringify(doc));
  return doc;
}

const tally = {};
const edits = { zh: [], en: [] };
const rows = [];
for (const e of entries) {
  const gt = groundTruth(e);
  const image = join(corpus, e.files.find((f) => f.endsWith('.jpg')));
  const t0 = Date.now();
  let result;
  try {
    const doc = await readPages(image);
    result = buildParseResult(doc, image, 'pro');
  } catch (err) {
    rows.push([e.id.slice(0, 48), 'ERROR ' + err.message]);
    continue;
  }
  const ms = Date.now() - t0;
  let ed = '';
  const pageScore = gt ? score(predictedRegions(result), gt, tally) : null;
  const mdPath = e.ground_truth.find((p) => p.endsWith('.md'));
  if (mdPath) {
    const truth = stripMarkup(readFileSync(join(corpus, mdPath), 'utf8'));
    const mine = stripMarkup(result.nodes.map((n) => n.text).join('\n'));
    const d = levenshtein(mine, truth) / Math.max(1, mine.length, truth.length);
    (/english/.test(gt?.language ?? '') ? edits.en : edits.zh).push(d);
    ed = d.toFixed(3);
  }
  const counts = TYPES.map((t) => `${t[0]}${result.nodes.filter((n) => n.type === t).length}/${gt ? gt.regions.filter((r) => r.type === t).length : '-'}`).join(' ');
  rows.push([e.id.slice(0, 48), `${ms} ms`, counts, pageScore ? `Text tp/fp/fn ${pageScore.Text} Title ${pageScore.Title} Table ${pageScore.Table} Figure ${pageScore.Figure}` : '', ed]);
  console.error(rows[rows.length - 1].join('  '));
}
console.log('\npage'.padEnd(50), 'time', 'pred/gt per type (T=Text t=Title...)', 'edit');
for (const r of rows) console.log(r.join('  '));
console.log('\nRegion F1 at IoU 0.5 (PubLayNet + OmniDocBench, summed over pages)');
for (const t of TYPES) {
  const { tp = 0, fp = 0, fn = 0 } = tally[t] ?? {};
  const p = tp / Math.max(1, tp + fp), r = tp / Math.max(1, tp + fn);
  console.log(`${t.padEnd(7)} tp ${tp} fp ${fp} fn ${fn}  P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${(p + r ? (2 * p * r) / (p + r) : 0).toFixed(3)}`);
}
// DocBank pages from their PDF (text layer, no OCR): each labelled token counts as right when the node whose
// composing block holds its centre has the token's type (section -> Title; paragraph, abstract, list, caption,
// author, title, date -> Text; table -> Table; figure -> Figure; equations, footers and references are skipped).
if (args.includes('--pdf')) {
  const LABEL = { section: 'Title', paragraph: 'Text', abstract: 'Text', list: 'Text', caption: 'Text', author: 'Text', title: 'Title', date: 'Text', table: 'Table', figure: 'Figure' };
  const hits = {};
  for (const e of entries.filter((x) => x.id.startsWith('docbank'))) {
    const pdf = join(corpus, e.files.find((f) => f.endsWith('.pdf')));
    const pageNo = e.summary?.pdf_page_1based ?? 1;
    const doc = await readDocument(pdf, { fileName: 'x.pdf', ocr: 'never' });
    doc.pages = doc.pages.filter((p) => p.pageNumber === pageNo);
    const res = buildParseResult(doc, 'x.pdf', 'pro');
    const W = doc.pages[0].width, H = doc.pages[0].height;
    const boxes = res.nodes.flatMap((n) => n.composing_blocks.filter((c) => c.page_number === pageNo).map((c) => ({ type: n.type, b: c.coordinates })));
    for (const row of readFileSync(join(corpus, e.ground_truth[0]), 'utf8').split('\n')) {
      const f = row.split('\t');
      const type = LABEL[(f[9] ?? '').trim()];
      if (!type || f.length < 10) continue;
      const cx = ((Number(f[1]) + Number(f[3])) / 2000) * W, cy = ((Number(f[2]) + Number(f[4])) / 2000) * H;
      const hit = boxes.find((x) => cx >= x.b[0] - 2 && cx <= x.b[2] + 2 && cy >= x.b[1] - 2 && cy <= x.b[3] + 2);
      const h = (hits[type] ??= { right: 0, all: 0 });
      h.all++;
      if (hit?.type === type) h.right++;
    }
  }
  console.log('\nDocBank pages from the PDF text layer: share of labelled tokens inside a node of their type');
  for (const [t, h] of Object.entries(hits)) console.log(`${t.padEnd(7)} ${(h.right / h.all).toFixed(3)} of ${h.all} tokens`);
}
if (rasterMs.length) {
  const sorted = [...rasterMs].sort((a, b) => a - b);
  console.log(`\nanalyseRaster on cached OCR pages: median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms over ${sorted.length} pages`);
}
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
console.log(`\nText edit distance (OmniDocBench .md): zh/mixed ${mean(edits.zh).toFixed(3)} over ${edits.zh.length} pages; en ${mean(edits.en).toFixed(3)} over ${edits.en.length} pages`);
