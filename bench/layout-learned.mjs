// The learned layout step (engine/vision/layout/learned): what it costs, and what a model changes.
//  1. Without a model: time of detectDocumentLayout when no model folder (or no layout/ in it) is configured.
//  2. With a model folder (DOCAI_LAYOUT_MODEL_DIR, default: the generated test model
//     tests/fixtures/generated/layout-models/paddle, whose graph is constant: this measures rendering,
//     preprocessing and line assignment, not a real network): ms per page of the step, and parse pages/s with and
//     without it, on a born-digital PDF of the corpus.
//  3. --corpus (only meaningful with a real model in DOCAI_LAYOUT_MODEL_DIR): region F1 at IoU 0.5 per type on the
//     PubLayNet + OmniDocBench page images of ../shared/corpus/layout, rules alone against the model (replace and
//     vote). OCR pages are cached in $TMPDIR/docai-bench-pages (shared with layout-corpus.mjs).
// Usage: npx tsc -b && node bench/layout-learned.mjs [--corpus] [--pages N]
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const corpus = process.env.DOCAI_CORPUS ?? resolve(here, '../../shared/corpus');
const modelDir = process.env.DOCAI_LAYOUT_MODEL_DIR ?? resolve(here, '../tests/fixtures/generated/layout-models/paddle');
const { readDocument } = await import('../dist/engine/vision/read-document.js');
const { buildParseResult } = await import('../dist/engine/parse/build-result.js');
const { detectDocumentLayout } = await import('../dist/engine/vision/layout/learned/detect-layout.js');
const args = process.argv.slice(2);
const maxPages = args.includes('--pages') ? Number(args[args.indexOf('--pages') + 1]) : 10;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const log = (m) => process.stderr.write(m);

// 1. no model
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
const entries = manifest.entries ?? manifest;
const finPdf = join(corpus, entries.find((e) => e.kind === 'fin_qa').files.find((f) => f.endsWith('.pdf')));
const doc = await readDocument(finPdf, { fileName: 'x.pdf', ocr: 'never', maxPages });
const noModel = [];
for (const dir of [null, join(corpus, 'fin_qa')]) {
  const t0 = performance.now();
  for (let i = 0; i < 1000; i++) await detectDocumentLayout(doc, { path: finPdf }, { modelDir: dir, log });
  noModel.push(((performance.now() - t0) / 1000) * 1000);
}
console.log(`1. no layout model: ${noModel[0].toFixed(1)} µs per document (no model folder), ${noModel[1].toFixed(1)} µs (model folder without layout/)`);

// 2. with a model
if (!existsSync(join(modelDir, 'layout'))) {
  console.log(`2. skipped: no layout/ folder in ${modelDir} (run the tests once to generate the fixture model)`);
} else {
  await detectDocumentLayout({ ...doc, pages: doc.pages.slice(0, 1) }, { path: finPdf }, { modelDir, log }); // load the session
  const perPage = [];
  let laid = doc;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    laid = await detectDocumentLayout(doc, { path: finPdf }, { modelDir, log });
    perPage.push((performance.now() - t0) / doc.pages.length);
  }
  const timeParse = (d) => {
    const t0 = performance.now();
    for (let i = 0; i < 3; i++) buildParseResult(d, 'x.pdf', 'pro');
    return (3 * d.pages.length) / ((performance.now() - t0) / 1000);
  };
  const dets = laid.pages.reduce((s, p) => s + (p.layoutDetections?.length ?? 0), 0);
  console.log(`2. model ${modelDir}: learned step median ${median(perPage).toFixed(1)} ms/page over ${doc.pages.length} pages of ${finPdf.split('/').pop()} (${dets} detections)`);
  console.log(`   pro parse after the step: rules ${timeParse(doc).toFixed(1)} pages/s, with detections ${timeParse(laid).toFixed(1)} pages/s`);
}

// 3. region F1 on the layout corpus
if (args.includes('--corpus')) {
  const TYPES = ['Text', 'Title', 'Table', 'Figure'];
  const PUB = { 1: 'Text', 2: 'Title', 3: 'Text', 4: 'Table', 5: 'Figure' };
  const OMNI = { title: 'Title', text_block: 'Text', table: 'Table', figure: 'Figure' };
  const iou = (a, b) => {
    const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
    const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
    return w <= 0 || h <= 0 ? 0 : (w * h) / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h);
  };
  const truth = (e) => {
    const gt = JSON.parse(readFileSync(join(corpus, e.ground_truth.find((p) => p.endsWith('.json'))), 'utf8'));
    if (e.id.startsWith('publaynet')) return { regions: gt.annotations.map((a) => ({ type: PUB[a.category_id], box: [a.bbox[0], a.bbox[1], a.bbox[0] + a.bbox[2], a.bbox[1] + a.bbox[3]] })), ignore: [] };
    const regions = [], ignore = [];
    for (const d of gt.layout_dets) {
      const xs = d.poly.filter((_, i) => i % 2 === 0), ys = d.poly.filter((_, i) => i % 2 === 1);
      const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      (OMNI[d.category_type] ? regions : ignore).push(OMNI[d.category_type] ? { type: OMNI[d.category_type], box } : box);
    }
    return { regions, ignore };
  };
  const tally = (t, pred, gt) => {
    for (const type of TYPES) {
      const P = pred.filter((p) => p.type === type), G = gt.regions.filter((g) => g.type === type);
      const pairs = [];
      P.forEach((p, i) => G.forEach((g, j) => { const v = iou(p.box, g.box); if (v >= 0.5) pairs.push([v, i, j]); }));
      pairs.sort((a, b) => b[0] - a[0]);
      const pm = new Set(), gm = new Set();
      for (const [, i, j] of pairs) if (!pm.has(i) && !gm.has(j)) { pm.add(i); gm.add(j); }
      const fp = P.filter((p, i) => !pm.has(i) && !gt.ignore.some((b) => iou(p.box, b) >= 0.5)).length;
      const s = (t[type] ??= { tp: 0, fp: 0, fn: 0 });
      s.tp += pm.size; s.fp += fp; s.fn += G.length - gm.size;
    }
  };
  const regionsOf = (result) => result.nodes.filter((n) => n.composing_blocks.length).map((n) => ({
    type: n.type,
    box: [0, 1, 2, 3].map((k) => (k < 2 ? Math.min : Math.max)(...n.composing_blocks.map((c) => c.coordinates[k]))),
  }));
  const cacheDir = join(tmpdir(), 'docai-bench-pages');
  mkdirSync(cacheDir, { recursive: true });
  const readPages = async (path) => {
    const st = statSync(path);
    const key = join(cacheDir, `${path.split('/').pop()}.${st.size}.${Math.round(st.mtimeMs)}.json`);
    if (existsSync(key)) return JSON.parse(readFileSync(key, 'utf8'));
    const d = await readDocument(path, { fileName: path.split('/').pop() });
    writeFileSync(key, JSON.stringify(d));
    return d;
  };
  const runs = { rules: {}, replace: {}, vote: {} };
  const stepMs = [];
  for (const e of entries.filter((x) => x.kind === 'layout' && (x.id.startsWith('publaynet') || x.id.startsWith('omnidocbench')))) {
    const image = join(corpus, e.files.find((f) => f.endsWith('.jpg')));
    const pages = await readPages(image);
    const gt = truth(e);
    tally(runs.rules, regionsOf(buildParseResult(pages, 'x.jpg', 'pro')), gt);
    for (const mode of ['replace', 'vote']) {
      const t0 = performance.now();
      const laid = await detectDocumentLayout(pages, { path: image }, { modelDir, mode, log });
      stepMs.push(performance.now() - t0);
      tally(runs[mode], regionsOf(buildParseResult(laid, 'x.jpg', 'pro')), gt);
    }
    process.stderr.write('.');
  }
  console.log(`\n3. region F1 at IoU 0.5 on the layout corpus (PubLayNet + OmniDocBench images), model ${modelDir}; step median ${median(stepMs).toFixed(0)} ms/page`);
  console.log('   run      ' + TYPES.map((t) => t.padEnd(24)).join(''));
  for (const [name, t] of Object.entries(runs)) {
    const cells = TYPES.map((type) => {
      const { tp = 0, fp = 0, fn = 0 } = t[type] ?? {};
      const p = tp / Math.max(1, tp + fp), r = tp / Math.max(1, tp + fn);
      return `F1 ${(p + r ? (2 * p * r) / (p + r) : 0).toFixed(3)} (${tp}/${fp}/${fn})`.padEnd(24);
    });
    console.log(`   ${name.padEnd(9)}${cells.join('')}`);
  }
}
