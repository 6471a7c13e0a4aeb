// Poll and submit throughput under concurrent clients (autocannon, loopback only, bounded), then
// N parse tasks queued at once: none lost, time until all finished. Run `npx tsc -b` first.
import autocannon from 'autocannon';
import { KEY, makePdf, startServer, submitParse, waitTask } from './api-server-process.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = [10, 100];
const QUEUED = Number(process.env.QUEUED ?? 200);

const s = await startServer();
try {
  const pdf = await makePdf(1, 'poll');
  const id = await submitParse(s.url, pdf, 'poll.pdf');
  const done = await waitTask(s.url, id);
  if (done.data.status !== 'SUCCESS') throw new Error('setup task failed');

  console.log('| scenario                                   | conns |   req/s | p50 ms | p99 ms | non-2xx | errors |');
  console.log('|--------------------------------------------|-------|---------|--------|--------|---------|--------|');
  const line = (name, c, r) =>
    console.log(`| ${name.padEnd(42)} | ${String(c).padStart(5)} | ${r.requests.average.toFixed(0).padStart(7)} | ${String(r.latency.p50).padStart(6)} | ${String(r.latency.p99).padStart(6)} | ${String(r.non2xx).padStart(7)} | ${String(r.errors).padStart(6)} |`);
  for (const c of CONNECTIONS) {
    const r = await autocannon({ url: `${s.url}/v1/docai/parse/${id}`, connections: c, duration: DURATION, headers: { 'api-key': KEY } });
    line(`GET /v1/docai/parse/:id (finished, ${done.data.results[0].blocks.length} blocks)`, c, r);
  }
  // submit: multipart POST of a 1-page PDF (identical bytes: the page model is cached after the first)
  const boundary = '----docaibench';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\nlite\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="s.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const ids = [];
  const sub = await autocannon({
    url: `${s.url}/v1/docai/parse`,
    method: 'POST',
    connections: 100,
    amount: 1000,
    headers: { 'api-key': KEY, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    setupClient: (client) => client.on('body', (b) => { try { ids.push(JSON.parse(b.toString()).data.task_id); } catch { /* counted as non-2xx */ } }),
  });
  line('POST /v1/docai/parse (1-page PDF, 1000 reqs)', 100, sub);
  let t0 = performance.now();
  const finals = await Promise.all(ids.map((t) => waitTask(s.url, t, 200, 600_000)));
  const drainS = (performance.now() - t0) / 1000;
  console.log(`\nsubmit burst: ${ids.length} tasks accepted; all finished ${drainS.toFixed(1)} s after the burst; SUCCESS ${finals.filter((f) => f.data.status === 'SUCCESS').length}`);

  // N distinct files queued at once (no cache hits): none lost
  const pdfs = await Promise.all(Array.from({ length: QUEUED }, (_, i) => makePdf(1, `queued ${i}`)));
  t0 = performance.now();
  const qids = await Promise.all(pdfs.map((b, i) => submitParse(s.url, b, `q${i}.pdf`)));
  const submitS = (performance.now() - t0) / 1000;
  const qfinal = await Promise.all(qids.map((t) => waitTask(s.url, t, 250, 600_000)));
  const totalS = (performance.now() - t0) / 1000;
  const ok = qfinal.filter((f) => f.data.status === 'SUCCESS').length;
  console.log(`${QUEUED} distinct 1-page parse tasks queued at once: submitted in ${submitS.toFixed(1)} s, all finished in ${totalS.toFixed(1)} s (${(QUEUED / totalS).toFixed(1)} tasks/s), SUCCESS ${ok}/${QUEUED}, lost ${QUEUED - qfinal.length}`);
} finally {
  await s.stop();
}
