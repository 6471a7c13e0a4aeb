// Server cold start to `listening`, and submit-to-SUCCESS of a 10-page born-digital PDF in lite mode.
// Run `npx tsc -b` first. Loopback only; each run uses a fresh data folder (no cached page models).
import { makePdf, startServer, submitParse, waitTask } from './api-server-process.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const starts = [];
const cold = [];
const warm = [];
for (let i = 0; i < RUNS; i++) {
  const s = await startServer();
  starts.push(s.startMs);
  try {
    const pdf = await makePdf(10, `run ${i}`);
    let t0 = performance.now();
    const r1 = await waitTask(s.url, await submitParse(s.url, pdf, 'ten-pages.pdf'));
    cold.push(performance.now() - t0);
    if (r1.data.status !== 'SUCCESS' || r1.data.results[0].blocks.length < 10) throw new Error(`unexpected result ${JSON.stringify(r1).slice(0, 300)}`);
    // the same bytes again: the page model comes from the content-hash cache
    t0 = performance.now();
    await waitTask(s.url, await submitParse(s.url, pdf, 'ten-pages-again.pdf'));
    warm.push(performance.now() - t0);
  } finally {
    await s.stop();
  }
}
const row = (name, xs) => console.log(`| ${name.padEnd(52)} | ${median(xs).toFixed(0).padStart(7)} | ${Math.min(...xs).toFixed(0).padStart(7)} | ${Math.max(...xs).toFixed(0).padStart(7)} |`);
console.log(`runs: ${RUNS}, workers: ${process.env.DOCAI_WORKERS ?? 'settings default'}`);
console.log('| measurement (ms)                                     |  median |     min |     max |');
console.log('|------------------------------------------------------|---------|---------|---------|');
row('cold start: spawn -> "listening on" line', starts);
row('10-page PDF lite: submit -> SUCCESS (first read)', cold);
row('10-page PDF lite: submit -> SUCCESS (same bytes again)', warm);
