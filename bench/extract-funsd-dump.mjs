// Per-form FUNSD dump for tuning open extraction: predicted pairs marked right (+) or wrong (-), then gold pairs missed.
//   EXTRACT_BENCH_CACHE=/tmp/extract-cache node bench/extract-funsd-dump.mjs [form-substring]
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runExtraction } from '../dist/engine/extract/run-extraction.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.DOCAI_CORPUS ?? join(root, '..', 'shared', 'corpus');
const cacheDir = process.env.EXTRACT_BENCH_CACHE ?? '/tmp/extract-cache';
const only = process.argv[2] ?? '';
const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
const norm = (s) => String(s ?? '').normalize('NFKC').replace(/\s+/g, '').toLowerCase().replace(/:$/, '');
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
for (const e of manifest.entries.filter((x) => x.kind === 'form_kv')) {
  const file = e.files[0];
  if (!file.includes(only)) continue;
  const cached = join(cacheDir, `${basename(file)}.json`);
  if (!existsSync(cached)) continue;
  const doc = JSON.parse(readFileSync(cached, 'utf8'));
  const kv = JSON.parse(readFileSync(join(corpus, [].concat(e.ground_truth).find((g) => g.endsWith('.kv.json'))), 'utf8'));
  const gold = kv.pairs.map((p) => [p.key, p.value]);
  const res = await runExtraction([{ fileName: basename(file), doc }], { mode: 'docai-extract', jsonSchema: null, prompt: '' });
  const used = new Set();
  console.log(`\n===== ${basename(file)}`);
  for (const k of res[0].key_index) {
    const pk = norm(k.replace(/_\d+$/, '')), pv = norm(res[0].extracted_fields[k]);
    const i = gold.findIndex(([gk, gv], j) => !used.has(j) && lev(pk, norm(gk)) <= 0.2 * Math.max(1, [...norm(gk)].length) && lev(pv, norm(gv)) <= 0.2 * Math.max(1, [...norm(gv)].length));
    if (i >= 0) used.add(i);
    console.log(`${i >= 0 ? '+' : '-'} ${JSON.stringify(k)} => ${JSON.stringify(res[0].extracted_fields[k])}`);
  }
  gold.forEach(([k, v], j) => { if (!used.has(j)) console.log(`  MISS ${JSON.stringify(k)} => ${JSON.stringify(v)}`); });
  if (process.env.LINES) for (const p of doc.pages) for (const l of p.lines) console.log(`    | ${l.bbox.map(Math.round).join(',')} ${JSON.stringify(l.text)}`);
}
