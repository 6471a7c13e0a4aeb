// Masking benchmark on the corpus's medical records (../shared/corpus/medical_record, JSON text).
// Each record is rendered to a text PDF and to PNG page scans in three layouts, with synthetic personal
// data substituted for the dataset's placeholders (and identity fields added) so that the truth is known.
// Reports per-category recall / precision / F2 (pixel coverage of every drawn value), leaked values
// (pdf.js text layer and re-OCR of the masked pixels), recall on the corpus's own placeholders, and the
// seconds to mask a 3-page scanned record end to end (read with OCR + mask).
//
//   npx tsc -b && node bench/mask-corpus.mjs
//   env: DOCAI_CORPUS (corpus folder), MASK_BENCH_CASES (how many cases, default all),
//        MASK_BENCH_LEAK_OCR (all | first | none: which masked pages to re-OCR, default all),
//        MASK_BENCH_PATHS (pdf,png: which renderings to measure, default both), MASK_BENCH_TIMING=0 (skip timing),
//        MASK_BENCH_SHOW_FP=1 (list regions that cover no known value)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PAGE_H, PAGE_W, layoutRecord, occurrenceBoxes, pdfWriter, pngMeasure, renderPng } from './mask-render-record.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.DOCAI_CORPUS ?? resolve(root, '../shared/corpus');
const { maskFile } = await import(join(root, 'dist/engine/mask/mask-file.js'));
const { readDocument } = await import(join(root, 'dist/engine/vision/read-document.js'));
const { renderDocumentPage } = await import(join(root, 'dist/engine/vision/render-page.js'));
const { decodeImagePages } = await import(join(root, 'dist/engine/formats/image-decode.js'));
const { ocrImage } = await import(join(root, 'dist/engine/vision/ocr/ocr-page.js'));
const { openPdf } = await import(join(root, 'dist/engine/formats/pdf/pdfjs-loader.js'));

const work = mkdtempSync(join(tmpdir(), 'mask-bench-'));
const LEAK_OCR = process.env.MASK_BENCH_LEAK_OCR ?? 'all';
const PATHS = (process.env.MASK_BENCH_PATHS ?? 'pdf,png').split(',');
const SIX = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长'];

// ---- synthetic personal data (this bench's own lists and formulas) ----
const PATIENTS = ['闫思远', '滕雪梅', '阚志刚', '柏玉兰', '诸葛文轩', '靳海波'];
const STAFF = ['孔令辉', '童佩珊', '谷建业', '应晓红', '樊立群', '褚静怡', '尹正阳', '芦美玲', '左春生', '凤雅丽', '易国华', '隋晓东', '苗秀英', '覃志明', '柯少华', '窦丽娜', '鄢德旺', '岑嘉欣'];
const RELATIVES = ['闫立新', '滕国庆', '阚晓琳', '柏志军', '诸葛敏', '靳红梅'];
const ADDRESSES = [
  '黑龙江省七台河市桃山区学府街56号3单元201室', '上海市徐汇区漕溪北路398号12楼', '江苏省苏州市姑苏区干将西路1288号',
  '四川省成都市武侯区人民南路四段27号', '湖北省武汉市洪山区珞喻路1037号', '山东省青岛市市南区香港中路76号2栋1502室',
];
const EMPLOYERS = ['七台河市第三中学', '上海申达纺织有限公司', '苏州工业园区管委会', '成都天府软件园', '武汉市公交集团', '青岛港务局'];
function idCheck(first17) {
  let s = 0;
  for (let i = 0; i < 17; i++) s += Number(first17[i]) * (2 ** (17 - i) % 11);
  const c = (12 - (s % 11)) % 11;
  return c === 10 ? 'X' : String(c);
}
const AREAS = ['230902', '310104', '320508', '510107', '420111', '370202'];

// ---- records ----
const mrDir = join(corpus, 'medical_record');
let cases = readdirSync(join(mrDir, 'gt')).filter((f) => f.endsWith('.json')).sort();
if (process.env.MASK_BENCH_CASES) {
  // "2" = the first two cases; "3-4" = the third and fourth.
  const [a, b] = process.env.MASK_BENCH_CASES.split('-').map(Number);
  cases = b ? cases.slice(a - 1, b) : cases.slice(0, a);
}

function flatten(v) {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (typeof v !== 'object') return String(v);
  return Object.entries(v).map(([k, x]) => `${k}:${flatten(x)}`).join(' ');
}

function loadRecord(gtFile) {
  const gt = JSON.parse(readFileSync(join(mrDir, 'gt', gtFile), 'utf8'));
  const ds = JSON.parse(readFileSync(join(corpus, gt.documents.find((d) => d.includes('discharge_summary'))), 'utf8'));
  const emr = JSON.parse(readFileSync(join(corpus, gt.documents.find((d) => d.includes('emr_source'))), 'utf8'));
  const body = Object.values(ds)[0];
  const basic = body['基本信息'] ?? {};
  const header = Object.entries(basic).filter(([, v]) => typeof v === 'string' && v.length < 40).map(([k, v]) => [k, v]);
  const sections = [];
  for (const [k, v] of Object.entries(body)) if (k !== '基本信息') sections.push([k, flatten(v).replace(/\s+/g, ' ').trim()]);
  const emrBody = Object.values(emr)[0] ?? emr;
  for (const [group, items] of Object.entries(emrBody)) {
    if (typeof items !== 'object' || items === null) continue;
    for (const [k, v] of Object.entries(items)) sections.push([`${group}/${k}`, flatten(v).replace(/\s+/g, ' ').trim().slice(0, 1500)]);
  }
  return { gt, header, sections };
}

function substitute(rec, k) {
  const patient = PATIENTS[k % PATIENTS.length];
  const staff = STAFF.slice((k * 3) % STAFF.length, (k * 3) % STAFF.length + 3);
  const birth = `19${50 + ((k * 7) % 45)}-0${1 + (k % 9)}-1${k % 10}`;
  const idBody = `${AREAS[k % AREAS.length]}${birth.replace(/-/g, '')}${String(100 + k * 37).slice(-3)}`;
  const phi = rec.gt.phi.values;
  const repl = new Map([
    [phi['姓名'], patient],
    [phi['住院号'], `ZY${String(4710000 + k * 1931)}`],
    [phi['住院流水号'], `${20240100000000 + k * 7919}`],
    [phi['出生年月'], birth],
  ]);
  const bedNew = `${31 + k * 4}`;
  if (phi['床号']) repl.set(phi['床号'], bedNew);
  let t = 0;
  const sub = (s) => {
    let out = s;
    for (const [a, b] of repl) if (a) out = out.split(a).join(b);
    out = out.replace(/TM员工名称TM/g, () => staff[t++ % 3]);
    return out;
  };
  const header = rec.header.map(([key, v]) => [key, key.includes('床') && v === phi['床号'] ? bedNew : sub(v)]);
  header.push(
    ['出生日期', birth], ['身份证号', idBody + idCheck(idBody)], ['联系电话', `1${[39, 58, 86, 77, 35, 50][k % 6]}${String(10000000 + k * 7654321).slice(-8)}`],
    ['家庭住址', ADDRESSES[k % ADDRESSES.length]], ['联系人', RELATIVES[k % RELATIVES.length]],
    ['联系人电话', `0${[451, 21, 512, 28, 27, 532][k % 6]}-${String(6000000 + k * 123457).slice(-7)}`], ['工作单位', EMPLOYERS[k % EMPLOYERS.length]],
  );
  const sections = rec.sections.map(([a, b]) => [a, sub(b)]);
  const values = [
    ['姓名', patient], ...staff.map((s) => ['姓名', s]), ['姓名', RELATIVES[k % RELATIVES.length]],
    ['身份证号', idBody + idCheck(idBody)], ['电话', header.find((h) => h[0] === '联系电话')[1]], ['电话', header.find((h) => h[0] === '联系人电话')[1]],
    ['地址', ADDRESSES[k % ADDRESSES.length]], ['工作单位', EMPLOYERS[k % EMPLOYERS.length]],
    ['编号', repl.get(phi['住院号'])], ['编号', repl.get(phi['住院流水号'])],
  ];
  return { header, sections, values, bed: bedNew };
}

// ---- truth on drawn pages ----
const DATE_RE = /(?:19|20)\d{2}(?:[-./]\d{1,2}(?:[-./]\d{1,2})?|年\d{1,2}月(?:\d{1,2}日)?)(?:\s?\d{1,2}:\d{2}(?::\d{2})?)?(?![\d.])/g;
const AGE_RE = /\d{1,3}岁/g;

function truthBoxes(pages, values, measure, headerShort) {
  // → per page: [{ cat, box }]
  return pages.map((lines) => {
    const out = [];
    for (const [cat, v] of values) for (const box of occurrenceBoxes(lines, v, measure)) out.push({ cat, box, value: v });
    for (const l of lines) {
      for (const [re, cat] of [
        [DATE_RE, '日期'], [AGE_RE, '年龄'], [/(?<=患者)[男女]/g, '性别'], [/(?<=性别[:：]?\s?)[男女]/g, '性别'], [/(?<=年龄[:：]?\s?)\d{1,3}/g, '年龄'],
        [/(?<=床号[:：]?\s?)[A-Za-z0-9+]+/g, '编号'], [/(?<=住院号[:：]?\s?)[A-Za-z0-9]+/g, '编号'], [/(?<=(?:病区名称|科别|科室)[:：]?\s?)[^\s,，:：]*病区/g, '编号'],
      ]) {
        for (const m of l.text.matchAll(re)) {
          const x1 = l.x + measure(l.text.slice(0, m.index));
          const x2 = l.x + measure(l.text.slice(0, m.index + m[0].length));
          out.push({ cat, box: [x1, l.baseline - 22 * 0.85, x2, l.baseline + 22 * 0.15], value: m[0] });
        }
      }
    }
    // Short header values (sex, age, bed, stay) only where the header prints them.
    const headerLines = lines.filter((l) => l.header);
    for (const [cat, v] of headerShort) for (const box of occurrenceBoxes(headerLines, v, measure)) out.push({ cat, box, value: v });
    return out;
  });
}

const REPORT_CAT = {
  患者姓名: '姓名', 医生姓名: '姓名', 家属姓名: '姓名', 身份证号: '身份证号', 电话: '电话', 电子邮箱: '电话', 地址: '地址', 工作单位: '工作单位',
  住院号: '编号', 病案号: '编号', 门诊号: '编号', 编号: '编号', 床号: '编号', 病区: '编号', 入院时间: '日期', 出院时间: '日期', 出生日期: '日期', 日期: '日期',
  患者性别: '性别', 年龄: '年龄', 住院时长: '住院时长',
};

function coverageMask(regions, pageNumber) {
  const m = new Uint8Array(PAGE_W * PAGE_H);
  for (const r of regions) {
    if (r.page_number !== pageNumber) continue;
    const [x1, y1, x2, y2] = r.bbox.map((v) => Math.round(v));
    for (let y = Math.max(0, y1); y < Math.min(PAGE_H, y2); y++) m.fill(1, y * PAGE_W + Math.max(0, x1), y * PAGE_W + Math.min(PAGE_W, x2));
  }
  return m;
}
function coveredShare(mask, box) {
  let c = 0;
  let n = 0;
  for (let y = Math.ceil(box[1]); y < Math.floor(box[3]); y++) for (let x = Math.ceil(box[0]); x < Math.floor(box[2]); x++) {
    n++;
    c += mask[y * PAGE_W + x];
  }
  return n ? c / n : 1;
}
function overlapShare(box, truths) {
  const area = Math.max(1, (box[2] - box[0]) * (box[3] - box[1]));
  let inter = 0;
  for (const t of truths) {
    const w = Math.min(box[2], t.box[2]) - Math.max(box[0], t.box[0]);
    const h = Math.min(box[3], t.box[3]) - Math.max(box[1], t.box[1]);
    if (w > 0 && h > 0) inter += w * h;
  }
  return inter / area;
}

const stats = {}; // cat -> { truth, recalled, pred, tp }
const S = (cat) => (stats[cat] ??= { truth: 0, recalled: 0, pred: 0, tp: 0 });
const missed = [];
const leaks = [];
let leakChecks = 0;

const falsePositives = [];
function score(result, truthPages, label, pages, measure) {
  truthPages.forEach((truths, i) => {
    const mask = coverageMask(result.regions, i + 1);
    for (const t of truths) {
      const s = S(t.cat);
      s.truth++;
      if (coveredShare(mask, t.box) >= 0.9) s.recalled++;
      else missed.push(`${label} p${i + 1} ${t.cat} ${t.value} (${coveredShare(mask, t.box).toFixed(2)})`);
    }
    for (const r of result.regions.filter((r) => r.page_number === i + 1)) {
      const s = S(REPORT_CAT[r.category] ?? r.category);
      s.pred++;
      if (overlapShare(r.bbox, truths) >= 0.25) s.tp++;
      else if (pages) {
        const l = pages[i].find((l) => l.baseline - 22 <= r.bbox[3] && l.baseline >= r.bbox[1]);
        let txt = '';
        if (l) for (let c = 0; c < l.text.length; c++) {
          const x = l.x + measure(l.text.slice(0, c + 0.5 | 0)) + measure(l.text[c]) / 2;
          if (x >= r.bbox[0] && x <= r.bbox[2]) txt += l.text[c];
        }
        falsePositives.push(`${label} ${r.category} ${txt}`);
      }
    }
  });
}

function checkLeak(text, values, label) {
  const sq = text.normalize('NFKC').replace(/\s+/g, '');
  for (const [cat, v] of values) {
    leakChecks++;
    if (sq.includes(v.replace(/\s+/g, ''))) leaks.push(`${label}: ${cat} ${v}`);
  }
}

async function ocrText(img) {
  const r = await ocrImage(img, { detectOrientation: false });
  return r.lines.map((l) => l.text).join('\n');
}

const measurePng = await pngMeasure();
const pdfw = await pdfWriter();
const layouts = ['form', 'narrative', 'grid'];
const t0 = Date.now();
let docs = 0;
let timingTiff = null;
const allPngs = [];

for (let k = 0; k < cases.length; k++) {
  const rec = loadRecord(cases[k]);
  const syn = substitute(rec, k);
  const headerShort = [];
  for (const [key, v] of syn.header) {
    if (key === '性别') headerShort.push(['性别', v]);
    if (key === '年龄') headerShort.push(['年龄', v]);
    if (key.includes('床')) headerShort.push(['编号', v]);
  }
  for (const layout of layouts) {
    const name = `${cases[k].replace('.json', '')}-${layout}`;
    const laid = layoutRecord({ layout, title: '出院小结', header: syn.header, sections: syn.sections }, measurePng, 3);
    if (process.env.MASK_BENCH_SHOW_FP) process.stderr.write(`${name}: ${laid.pages.length} pages, ${laid.pages.flat().length} lines\n`);
    // PNG scans
    if (PATHS.includes('png')) {
      const pngPaths = [];
      for (let p = 0; p < laid.pages.length; p++) {
        const path = join(work, `${name}-p${p + 1}.png`);
        writeFileSync(path, await renderPng(laid.pages[p], laid.rules[p] ?? []));
        pngPaths.push(path);
      }
      for (let p = 0; p < pngPaths.length; p++) {
        const doc = await readDocument(pngPaths[p], { fileName: 'scan.png', format: 'png', ocr: 'auto' });
        const outPath = join(work, `masked-${name}-p${p + 1}.png`);
        const result = await maskFile({ path: pngPaths[p], fileName: 'scan.png', format: 'png', doc, fields: SIX, outPath });
        score(result, truthBoxes([laid.pages[p]], syn.values, measurePng, headerShort), `${name} png p${p + 1}`, [laid.pages[p]], measurePng);
        if (LEAK_OCR === 'all' || (LEAK_OCR === 'first' && p === 0)) {
          const img = (await decodeImagePages(outPath, 'png'))[0];
          checkLeak(await ocrText(img), syn.values, `${name} png p${p + 1}`);
        }
        docs++;
      }
      allPngs.push(...pngPaths);
    }
    // Text PDF
    if (PATHS.includes('pdf')) {
      const { bytes, measure } = await pdfw.write(laid.pages, laid.rules);
      const path = join(work, `${name}.pdf`);
      writeFileSync(path, bytes);
      const doc = await readDocument(path, { fileName: 'record.pdf', format: 'pdf', ocr: 'auto' });
      const outPath = join(work, `masked-${name}.pdf`);
      const result = await maskFile({ path, fileName: 'record.pdf', format: 'pdf', doc, fields: SIX, outPath });
      // Truth boxes for the PDF come from the PDF fonts' own widths, at 144 dpi (= page pixels).
      score(result, truthBoxes(laid.pages, syn.values, (s) => measure(s), headerShort), `${name} pdf`, laid.pages, measure);
      const pdf = await openPdf(new Uint8Array(readFileSync(outPath)));
      let layerText = '';
      for (let p = 1; p <= pdf.numPages; p++) layerText += (await (await pdf.getPage(p)).getTextContent()).items.map((it) => it.str ?? '').join('');
      await pdf.destroy();
      if (layerText.length > 0) leaks.push(`${name} pdf: text layer has ${layerText.length} characters`);
      checkLeak(layerText, syn.values, `${name} pdf text layer`);
      const pages = LEAK_OCR === 'all' ? result.pageCount : LEAK_OCR === 'first' ? 1 : 0;
      for (let p = 1; p <= pages; p++) checkLeak(await ocrText(await renderDocumentPage(outPath, 'pdf', p)), syn.values, `${name} pdf p${p} OCR`);
      docs++;
    }
  }
  process.stderr.write(`case ${k + 1}/${cases.length} done (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
}

// ---- report ----
const f = (x) => (Number.isFinite(x) ? (x * 100).toFixed(1) + '%' : '-');
console.log(`\nMask benchmark: ${cases.length} records x ${layouts.length} layouts, paths ${PATHS.join('+')}, ${docs} masked files\n`);
console.log('category      truth  recall   pred  precision   F2');
let T = 0, R = 0, P = 0, TP = 0;
for (const [cat, s] of Object.entries(stats).sort()) {
  const r = s.truth ? s.recalled / s.truth : NaN;
  const p = s.pred ? s.tp / s.pred : NaN;
  const f2 = r && p ? (5 * p * r) / (4 * p + r) : NaN;
  T += s.truth; R += s.recalled; P += s.pred; TP += s.tp;
  console.log(`${cat.padEnd(10, '　')} ${String(s.truth).padStart(6)} ${f(r).padStart(7)} ${String(s.pred).padStart(6)} ${f(p).padStart(9)} ${Number.isFinite(f2) ? f2.toFixed(3) : '  -  '}`);
}
const rAll = R / T, pAll = TP / P;
console.log(`${'overall'.padEnd(10)}   ${String(T).padStart(6)} ${f(rAll).padStart(7)} ${String(P).padStart(6)} ${f(pAll).padStart(9)} ${((5 * pAll * rAll) / (4 * pAll + rAll)).toFixed(3)}`);
console.log(`\nleaked values: ${leaks.length} of ${leakChecks} checks (re-OCR: ${LEAK_OCR})`);
for (const l of leaks.slice(0, 30)) console.log('  LEAK ' + l);
console.log(`missed occurrences: ${missed.length}`);
for (const m of missed.slice(0, 40)) console.log('  miss ' + m);
if (process.env.MASK_BENCH_SHOW_FP) for (const m of falsePositives) console.log('  fp ' + m);
const pagesDrawn = 0;

// ---- the corpus's own placeholders, as they stand (text PDF, form layout) ----
const phiStats = {};
for (let k = 0; k < cases.length; k++) {
  const rec = loadRecord(cases[k]);
  const phi = rec.gt.phi.values;
  const laid = layoutRecord({ layout: 'form', title: '出院小结', header: rec.header, sections: rec.sections }, measurePng, 3);
  const { bytes, measure } = await pdfw.write(laid.pages, laid.rules);
  const path = join(work, `raw-${k}.pdf`);
  writeFileSync(path, bytes);
  const doc = await readDocument(path, { fileName: 'raw.pdf', format: 'pdf', ocr: 'never' });
  const result = await maskFile({ path, fileName: 'raw.pdf', format: 'pdf', doc, fields: SIX, outPath: join(work, `raw-masked-${k}.pdf`) });
  const vals = Object.entries(phi).filter(([t]) => !t.startsWith('病案')).map(([t, v]) => [t, v]);
  vals.push(['TM员工名称TM', 'TM员工名称TM']);
  laid.pages.forEach((lines, i) => {
    const mask = coverageMask(result.regions, i + 1);
    for (const [t, v] of vals) {
      for (const box of occurrenceBoxes(lines, v, measure)) {
        const s = (phiStats[t] ??= { n: 0, ok: 0 });
        s.n++;
        if (coveredShare(mask, box) >= 0.9) s.ok++;
        else missed.push(`raw case ${k} ${t} ${v}`);
      }
    }
  });
}
console.log('\nCorpus placeholders as they stand (text PDF, form layout, first 3 pages):');
for (const [t, s] of Object.entries(phiStats)) console.log(`  ${t.padEnd(14)} ${s.ok}/${s.n} = ${f(s.ok / s.n)}`);

// ---- speed: a 3-page scanned record (TIFF) read with OCR and masked, end to end ----
if (allPngs.length >= 3 && process.env.MASK_BENCH_TIMING !== '0') {
  timingTiff = join(work, 'timing-3-pages.tiff');
  execFileSync('convert', [...allPngs.slice(0, 3), '-compress', 'lzw', timingTiff]);
}
if (timingTiff) {
  const times = [];
  for (let run = 0; run < 2; run++) {
    const a = Date.now();
    const doc = await readDocument(timingTiff, { fileName: 'scan.tiff', format: 'tiff', ocr: 'auto' });
    const b = Date.now();
    await maskFile({ path: timingTiff, fileName: 'scan.tiff', format: 'tiff', doc, fields: SIX, outPath: join(work, `timing-${run}.tiff`) });
    const c = Date.now();
    times.push(`${((c - a) / 1000).toFixed(2)} s (read+OCR ${((b - a) / 1000).toFixed(2)} s, mask+write ${((c - b) / 1000).toFixed(2)} s)`);
  }
  console.log(`\n3-page scanned record (TIFF, ${PAGE_W}x${PAGE_H} per page) end to end: ${times.join('; ')}`);
}
console.log(`\ntotal bench time ${((Date.now() - t0) / 1000).toFixed(0)} s; files in ${work}`);
