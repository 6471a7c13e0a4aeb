// Long fuzz run of the targets the CI tests run briefly (tests/unit/fuzz/fuzz-targets.mjs): the PDF reader
// (readDocument from dist/ on mutated PDFs) and the request parsers of a real server (multipart submit,
// parse v2 JSON, chat JSON). Each target: RUNS runs (default 1,000) or SECONDS (default 60), whichever
// comes first. Prints runs, time and failures (with seed and counterexample). Run `npx tsc -b` first.
// Loopback only; the server gets its own temporary data folder.
import { existsSync, readFileSync } from 'node:fs';
import { readDocument } from '../dist/engine/vision/read-document.js';
import { chatProperty, multipartProperty, parseV2Property, readDocumentProperty, runTarget } from '../tests/unit/fuzz/fuzz-targets.mjs';
import { KEY, makePdf, startServer } from './api-server-process.mjs';

const RUNS = Number(process.env.RUNS ?? 1000);
const SECONDS = Number(process.env.SECONDS ?? 60);
const only = process.argv.slice(2);
const params = { numRuns: RUNS, interruptAfterTimeLimit: SECONDS * 1000, seed: process.env.SEED ? Number(process.env.SEED) : undefined };

// the fixed bytes of the test corpus (tests/fixtures/make-bad-inputs.ts; made by `npx vitest run`), so a seed replays
const fixture = (name) => new URL(`../tests/fixtures/generated/${name}`, import.meta.url);
const bases = ['bad-inputs-good.pdf', 'bad-inputs-good-objstm.pdf'].map(fixture).filter((u) => existsSync(u)).map((u) => readFileSync(u));
if (bases.length < 2) console.log('(tests/fixtures/generated/bad-inputs-good*.pdf not made yet: run `npx vitest run tests/unit/fuzz` once; fuzzing a fresh PDF)');
const goodPdf = bases[0] ?? (await makePdf(2, 'fuzz'));
const results = [];
const want = (name) => only.length === 0 || only.some((o) => name.includes(o));

if (want('readDocument')) {
  const t = readDocumentProperty(readDocument, bases.length > 0 ? bases : [goodPdf], 15_000);
  try {
    results.push(await runTarget('readDocument(mutated pdf)', t.property, params));
    console.log(`readDocument: ${t.strays.count} inputs left a stray pdf.js rejection (tolerated by the worker child)${t.strays.first ? `; first: ${t.strays.first}, kept at ${t.strays.file}` : ''}`);
  } finally {
    t.cleanup();
  }
}

if (want('multipart') || want('v2') || want('chat')) {
  const s = await startServer({ DOCAI_CHAT_RATE_LIMIT: '1000000', DOCAI_WORKERS: '1' });
  const server = { url: s.url, key: KEY };
  try {
    if (want('multipart')) results.push(await runTarget('multipart submit (parse/extract/mask/files)', multipartProperty(server, goodPdf), params));
    if (want('v2')) results.push(await runTarget('parse v2 JSON body', parseV2Property(server), params));
    if (want('chat')) results.push(await runTarget('chat JSON body', chatProperty(server), params));
    const h = await fetch(`${s.url}/v1/health`).then((r) => r.json());
    console.log(`server after the run: ${h.status}, ${h.tasks_in_flight} tasks in flight`);
  } finally {
    await s.stop();
  }
}

console.log(`\n| target                                      |  runs | seconds | runs/s | result |`);
console.log(`|---------------------------------------------|-------|---------|--------|--------|`);
for (const r of results) {
  console.log(`| ${r.name.padEnd(43)} | ${String(r.runs).padStart(5)} | ${r.seconds.toFixed(1).padStart(7)} | ${(r.runs / r.seconds).toFixed(1).padStart(6)} | ${r.failed ? 'FAILED' : 'ok'.padEnd(6)} |`);
}
for (const r of results.filter((x) => x.failed)) console.log(`\n${r.name}: seed ${r.seed}\n  error: ${r.error}\n  counterexample: ${r.counterexample}`);
process.exitCode = results.some((r) => r.failed) ? 1 : 0;
