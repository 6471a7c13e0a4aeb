// Extraction accuracy and speed on the evaluation corpus (see ../shared/corpus/README.md, "How figures are scored").
//   npx tsc -b && node bench/extract-corpus.mjs [licence|funsd|emr ...]
// DOCAI_CORPUS: corpus folder (default ../shared/corpus). EXTRACT_BENCH_CACHE: a folder where the page model of
// each corpus image is kept between runs (accuracy tuning without re-running OCR; speed is then not measured).
import { readFileSync, existsSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { readDocument } from '../dist/engine/vision/read-document.js';
import { runExtraction } from '../dist/engine/extract/run-extraction.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.DOCAI_CORPUS ?? join(root, '..', 'shared', 'corpus');
const cacheDir = process.env.EXTRACT_BENCH_CACHE ?? null;
const only = process.argv.slice(2);
const want = (k) => only.length === 0 || only.includes(k);
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
const entries = manifest.entries;
const gtPath = (e, suffix = '.json') => [].concat(e.ground_truth).find((g) => g.endsWith(suffix) && (suffix !== '.json' || !g.endsWith('.kv.json')));

function norm(s) {
  return String(s ?? '')
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/：/g, ':').replace(/（/g, '(').replace(/）/g, ')').replace(/，/g, ',').replace(/；/g, ';').replace(/。/g, '.');
}
function lev(a, b) {
  const x = [...a], y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}
const LONG = new Set(['经营范围', '住所', '地址']);
function fieldRight(field, got, truth) {
  const g = norm(got), t = norm(truth);
  if (g === t) return true;
  return LONG.has(field) && lev(g, t) <= 0.03 * [...t].length;
}

async function readCached(path, key) {
  const cached = cacheDir ? join(cacheDir, `${key}.json`) : null;
  if (cached && existsSync(cached)) return { doc: JSON.parse(readFileSync(cached, 'utf8')), seconds: null };
  const t0 = performance.now();
  const doc = await readDocument(path, { fileName: basename(path) });
  const seconds = (performance.now() - t0) / 1000;
  if (cached) {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cached, JSON.stringify(doc));
  }
  return { doc, seconds };
}

function table(rows) {
  const w = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  for (const r of rows) console.log(r.map((c, i) => String(c).padEnd(w[i])).join('  '));
}

async function licences() {
  const kinds = [
    ['business_license', 'bl-extract', { 名称: '名称', 统一社会信用代码: '统一社会信用代码', 注册资本: '注册资本', 类型: '类型', 成立日期: '成立日期', 法定代表人: '法定代表人', 营业期限: '营业期限', 经营范围: '经营范围', 住所: '住所' }, '营业执照'],
    ['org_code_cert', 'occ-extract', { 组织机构代码: '代码', 机构名称: '机构名称', 机构类型: '机构类型', 地址: '地址', 有效期: '有效期', 颁发单位: '颁发单位', 登记号: '登记号' }, '组织机构代码证'],
  ];
  const perField = new Map();
  const rows = [['file', 'type', 'right/legible', 'read s', 'extract ms', 'wrong fields']];
  const times = [];
  for (const [kind, mode, map, typeName] of kinds) {
    for (const e of entries.filter((x) => x.kind === kind)) {
      const file = e.files[0];
      const gt = JSON.parse(readFileSync(join(corpus, gtPath(e)), 'utf8'));
      const { doc, seconds } = await readCached(join(corpus, file), basename(file));
      const t1 = performance.now();
      const res = await runExtraction([{ fileName: basename(file), doc }], { mode, jsonSchema: null, prompt: '' });
      const ms = performance.now() - t1;
      if (seconds !== null && kind === 'business_license') times.push(seconds + ms / 1000);
      const got = res[0].extract_data[0].extracted_fields;
      let right = 0, n = 0;
      const wrong = [];
      for (const [ours, theirs] of Object.entries(map)) {
        const truth = gt.fields[theirs];
        if (truth === null || truth === undefined) continue;
        n++;
        const ok = fieldRight(ours, got[ours], truth);
        const pf = perField.get(`${mode} ${ours}`) ?? [0, 0];
        perField.set(`${mode} ${ours}`, [pf[0] + (ok ? 1 : 0), pf[1] + 1]);
        if (ok) right++;
        else wrong.push(`${ours}=${JSON.stringify(got[ours])} (truth ${JSON.stringify(truth)})`);
      }
      rows.push([basename(file), got['图片类型'] === typeName ? got['图片类型'] : `WRONG ${got['图片类型']}`, `${right}/${n}`, seconds === null ? 'cached' : seconds.toFixed(2), ms.toFixed(1), wrong.join('; ')]);
    }
  }
  table(rows);
  console.log('');
  const frows = [['field', 'right', 'of']];
  let R = 0, N = 0;
  for (const [k, [r, n]] of perField) {
    frows.push([k, r, n]);
    R += r;
    N += n;
  }
  table(frows);
  console.log(`\nlicence + certificate fields right: ${R}/${N} = ${((100 * R) / N).toFixed(1)}% (goal >= 95%)`);
  if (times.length) console.log(`licence image end to end (read + OCR + extract): mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(2)} s, max ${Math.max(...times).toFixed(2)} s (goal <= 3 s)`);
}

function normKv(s) {
  return norm(s).toLowerCase().replace(/:$/, '');
}
async function funsd() {
  let right = 0, predicted = 0, gold = 0;
  const rows = [['form', 'gold', 'predicted', 'right']];
  for (const e of entries.filter((x) => x.kind === 'form_kv')) {
    const file = e.files[0];
    const kv = JSON.parse(readFileSync(join(corpus, gtPath(e, '.kv.json')), 'utf8'));
    const goldPairs = kv.pairs.map((p) => [normKv(p.key), normKv(p.value)]);
    const { doc } = await readCached(join(corpus, file), basename(file));
    const res = await runExtraction([{ fileName: basename(file), doc }], { mode: 'docai-extract', jsonSchema: null, prompt: '' });
    const pred = res[0].key_index.map((k) => [normKv(k.replace(/_\d+$/, '')), normKv(res[0].extracted_fields[k])]);
    const used = new Set();
    let r = 0;
    for (const [pk, pv] of pred) {
      const i = goldPairs.findIndex(([gk, gv], j) => !used.has(j) && lev(pk, gk) <= 0.2 * Math.max(1, [...gk].length) && lev(pv, gv) <= 0.2 * Math.max(1, [...gv].length));
      if (i >= 0) {
        used.add(i);
        r++;
      }
    }
    right += r;
    predicted += pred.length;
    gold += goldPairs.length;
    rows.push([basename(file), goldPairs.length, pred.length, r]);
  }
  table(rows);
  const f1 = (2 * right) / Math.max(1, predicted + gold);
  console.log(`\nFUNSD key-value F1: ${f1.toFixed(3)} (right ${right}, predicted ${predicted}, gold ${gold}; goal >= 0.70)`);
}

function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
/** A record JSON printed as a document: section headings, "key: value" lines, text paragraphs. */
function recordHtml(json) {
  const parts = [];
  const walk = (o, depth) => {
    for (const [k, v] of Object.entries(o)) {
      if (v && typeof v === 'object') {
        parts.push(`<h${Math.min(depth + 1, 4)}>${esc(k)}</h${Math.min(depth + 1, 4)}>`);
        walk(v, depth + 1);
      } else {
        const text = esc(String(v)).replace(/\t/g, '  ').split('\n').join('<br>');
        parts.push(`<p>${esc(k)}: ${text}</p>`);
      }
    }
  };
  for (const v of Object.values(json)) walk(v, 1);
  return `<!doctype html><meta charset="utf-8"><style>body{font-family:"Noto Sans CJK SC";font-size:11pt;margin:1.5cm} h2,h3,h4{font-size:12pt;margin:8pt 0 2pt} p{margin:2pt 0}</style>${parts.join('\n')}`;
}
function printPdf(html, pdfPath) {
  const htmlPath = pdfPath.replace(/\.pdf$/, '.html');
  writeFileSync(htmlPath, html);
  execFileSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--no-pdf-header-footer', `--print-to-pdf=${pdfPath}`, `file://${htmlPath}`], { stdio: 'ignore', timeout: 60000 });
}
const EMR_LONG = new Set(['主诉', '现病史', '既往史']);
const EMR_FIELDS = ['患者姓名', '患者性别', '年龄', '入院时间', '出院时间', '住院时长', '主诉', '现病史', '既往史'];
async function emr() {
  const work = join(tmpdir(), 'docai-bench-emr');
  mkdirSync(work, { recursive: true });
  const variants = process.env.EMR_SCAN === '1' ? ['pdf', 'png'] : ['pdf'];
  for (const variant of variants) {
    const per = new Map(EMR_FIELDS.map((f) => [f, [0, 0, 0]]));
    let nearRight = 0;
    const rows = [['case', 'first hit right', 'any hit right', 'wrong (first hit)']];
    for (const e of entries.filter((x) => x.kind === 'medical_record')) {
      const gt = JSON.parse(readFileSync(join(corpus, gtPath(e)), 'utf8'));
      const docs = [...e.files].sort((a, b) => (a.includes('discharge') ? -1 : 1) - (b.includes('discharge') ? -1 : 1));
      const files = [];
      for (const f of docs) {
        const pdf = join(work, basename(f).replace(/\.json$/, '.pdf'));
        if (!existsSync(pdf)) printPdf(recordHtml(JSON.parse(readFileSync(join(corpus, f), 'utf8'))), pdf);
        if (variant === 'pdf') files.push({ fileName: basename(pdf), doc: await readDocument(pdf, { fileName: basename(pdf) }) });
        else {
          const prefix = pdf.replace(/\.pdf$/, '-scan');
          if (!readdirSync(work).some((n) => n.startsWith(basename(prefix) + '-'))) execFileSync('pdftoppm', ['-r', '144', '-png', '-l', process.env.EMR_SCAN_PAGES ?? '3', pdf, prefix]);
          for (const png of readdirSync(work).filter((n) => n.startsWith(basename(prefix) + '-') && n.endsWith('.png')).sort()) {
            const { doc } = await readCached(join(work, png), `emr-${png}`);
            files.push({ fileName: png, doc });
          }
        }
      }
      const [item] = await runExtraction(files, { mode: 'emr-extract', jsonSchema: {}, prompt: '' });
      let first = 0, any = 0;
      const wrong = [];
      for (const f of EMR_FIELDS) {
        const g = gt.fields[f];
        const truths = f === '住院时长' ? [`${g.value_days}天`] : [g.value, g.alt_value].filter(Boolean);
        const hits = (item[f] ?? []).map((h) => h.value);
        const ok1 = hits.length > 0 && truths.some((t) => norm(hits[0]) === norm(t));
        const near = hits.length > 0 && truths.some((t) => lev(norm(hits[0]), norm(t)) <= (EMR_LONG.has(f) ? 0.03 * [...norm(t)].length : 0));
        nearRight += near ? 1 : 0;
        const okAny = hits.some((h) => truths.some((t) => norm(h) === norm(t)));
        const p = per.get(f);
        per.set(f, [p[0] + (ok1 ? 1 : 0), p[1] + (okAny ? 1 : 0), p[2] + 1]);
        first += ok1 ? 1 : 0;
        any += okAny ? 1 : 0;
        if (!ok1) wrong.push(`${f}=${JSON.stringify((hits[0] ?? '').slice(0, 40))}`);
      }
      rows.push([e.id, `${first}/${EMR_FIELDS.length}`, `${any}/${EMR_FIELDS.length}`, wrong.join('; ')]);
    }
    console.log(`\nmedical records, rendered to ${variant.toUpperCase()}:`);
    table(rows);
    let a = 0, b = 0, n = 0;
    const frows = [['field', 'first hit', 'any hit', 'of']];
    for (const [f, [x, y, z]] of per) {
      frows.push([f, x, y, z]);
      a += x;
      b += y;
      n += z;
    }
    table(frows);
    console.log(`medical record fields (${variant}): first hit ${a}/${n} = ${((100 * a) / n).toFixed(1)}%, any hit ${b}/${n} = ${((100 * b) / n).toFixed(1)}% (goal >= 90%)`);
    console.log(`  first hit with 主诉/现病史/既往史 scored like the long licence fields (CER <= 3%): ${nearRight}/${n} = ${((100 * nearRight) / n).toFixed(1)}%`);
  }
}

if (want('licence')) await licences();
if (want('funsd')) await funsd();
if (want('emr')) await emr();
