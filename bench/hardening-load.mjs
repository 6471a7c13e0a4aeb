// Load the hardening way (loopback only, bounded in time): what bench/api-poll.mjs does not already
// measure. (1) poll and submit AT THE SAME TIME, 100 polling clients beside 20 submitting ones;
// (2) 100 clients sending hostile submits (cut multipart, junk files, a json_schema that is not JSON):
// every answer must be a 4xx, never a 5xx or a dropped connection; (3) N parse tasks queued
// at once while (2) runs: none lost. Server RSS (VmRSS of the server process) before and after.
// Plain poll / submit throughput and 200 queued tasks alone: bench/api-poll.mjs. Run `npx tsc -b` first.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEY, makePdf, startServer, submitParse, waitTask } from './api-server-process.mjs';

const DURATION = Number(process.env.DURATION ?? 10);
const QUEUED = Number(process.env.QUEUED ?? 200);

const s = await startServer();
const pid = Number(readFileSync(join(s.home, 'server.lock'), 'utf8').trim());
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function multipart(parts, boundary = '----docaiLoad') {
  const chunks = [];
  for (const [name, value, filename] of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

const row = (name, c, r) =>
  console.log(
    `| ${name.padEnd(46)} | ${String(c).padStart(5)} | ${r.requests.average.toFixed(0).padStart(7)} | ${String(r.latency.p50).padStart(6)} | ${String(r.latency.p99).padStart(6)} | ${String(r['2xx']).padStart(6)} | ${String(r['4xx']).padStart(6)} | ${String(r['5xx']).padStart(5)} | ${String(r.errors + r.timeouts).padStart(6)} |`,
  );

try {
  const pdf = await makePdf(1, 'load');
  const id = await submitParse(s.url, pdf, 'load.pdf');
  if ((await waitTask(s.url, id)).data.status !== 'SUCCESS') throw new Error('setup task failed');
  const rssStart = rssMb();

  console.log('| scenario                                       | conns |   req/s | p50 ms | p99 ms |    2xx |    4xx |   5xx | errors |');
  console.log('|------------------------------------------------|-------|---------|--------|--------|--------|--------|-------|--------|');

  // (1) poll and submit at once
  const good = multipart([['mode', 'lite'], ['files', pdf, 'load.pdf']]);
  const [poll, submit] = await Promise.all([
    autocannon({ url: `${s.url}/v1/docai/parse/${id}`, connections: 100, duration: DURATION, headers: { 'api-key': KEY } }),
    autocannon({ url: `${s.url}/v1/docai/parse`, method: 'POST', connections: 20, amount: 500, headers: { 'api-key': KEY, 'content-type': good.type }, body: good.body }),
  ]);
  row('GET poll, while submits run', 100, poll);
  row('POST submit 1-page PDF (500), while polls run', 20, submit);

  // (2) hostile submits, with (3) distinct parse tasks queued at the same time
  const whole = multipart([['mode', 'lite'], ['files', pdf, 'cut.pdf']]);
  const hostile = [
    { ...whole, body: whole.body.subarray(0, whole.body.length - 300) },
    multipart([['mode', 'lite'], ['files', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) & 0xff)), 'junk.pdf']]),
    multipart([['mode', 'docai-extract'], ['json_schema', '{"type": object'], ['files', pdf, 'a.pdf']]),
    multipart([['mode', 'lite'], ['files', Buffer.alloc(0), 'empty.pdf']]),
  ];
  const pdfs = await Promise.all(Array.from({ length: QUEUED }, (_, i) => makePdf(1, `queued ${i}`)));
  const t0 = performance.now();
  const queuedIds = Promise.all(pdfs.map((b, i) => submitParse(s.url, b, `q${i}.pdf`)));
  const bad = await autocannon({
    url: s.url,
    connections: 100,
    duration: DURATION,
    requests: hostile.map((h, i) => ({ method: 'POST', path: i === 2 ? '/v1/docai/extract' : '/v1/docai/parse', headers: { 'api-key': KEY, 'content-type': h.type }, body: h.body })),
  });
  row('POST hostile submits (cut, junk, bad schema, empty)', 100, bad);
  const ids = await queuedIds;
  const submittedS = (performance.now() - t0) / 1000;
  const finals = await Promise.all(ids.map((t) => waitTask(s.url, t, 250, 600_000)));
  const drainS = (performance.now() - t0) / 1000;
  const ok = finals.filter((f) => f.data.status === 'SUCCESS').length;
  const h = await fetch(`${s.url}/v1/health`).then((r) => r.json());
  await new Promise((r) => setTimeout(r, 5000));
  const rssEnd = rssMb();
  console.log(`\n${QUEUED} distinct parse tasks queued during the hostile load: all submitted in ${submittedS.toFixed(1)} s, all finished ${drainS.toFixed(1)} s after the first; SUCCESS ${ok}/${QUEUED}, lost ${QUEUED - finals.length}`);
  console.log(`hostile answers: ${bad['4xx']} 4xx, ${bad['2xx']} 2xx, ${bad['5xx']} 5xx, ${bad.errors} connection errors, ${bad.timeouts} timeouts`);
  console.log(`server after the run: ${h.status}, ${h.tasks_in_flight} tasks in flight, RSS ${rssStart.toFixed(0)} MB before -> ${rssEnd.toFixed(0)} MB after (5 s idle)`);
} finally {
  await s.stop();
}
