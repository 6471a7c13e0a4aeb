// Start and stop the built server for the api-* benches (loopback only, temp data folder).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const KEY = 'bench-key-0123456789';

export async function startServer(env = {}) {
  const home = mkdtempSync(join(tmpdir(), 'docai-bench-'));
  const t0 = process.hrtime.bigint();
  const proc = spawn(process.execPath, [join(REPO, 'bin/docai.js'), 'serve', '--port', '0'], {
    cwd: REPO,
    env: { ...process.env, DOCAI_HOME: home, DOCAI_API_KEY: KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stderr.on('data', (d) => (out += d));
  const url = await new Promise((res, rej) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(buf);
      if (m) res(m[1]);
    });
    proc.once('exit', (c) => rej(new Error(`server exited ${c}: ${out}`)));
  });
  const startMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return {
    url,
    home,
    startMs,
    async stop() {
      const done = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await done;
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export async function submitParse(url, bytes, name, mode = 'lite') {
  const fd = new FormData();
  fd.append('mode', mode);
  fd.append('files', new Blob([bytes]), name);
  const r = await fetch(`${url}/v1/docai/parse`, { method: 'POST', headers: { 'api-key': KEY }, body: fd });
  const j = await r.json();
  if (!j.success) throw new Error(JSON.stringify(j));
  return j.data.task_id;
}

export async function waitTask(url, id, intervalMs = 20, timeoutMs = 120_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await fetch(`${url}/v1/docai/parse/${id}`, { headers: { 'api-key': KEY } });
    const j = await r.json();
    if (j.data?.status !== 'PROCESSING') return j;
    if (Date.now() > end) throw new Error(`task ${id} still PROCESSING`);
    await new Promise((res) => setTimeout(res, intervalMs));
  }
}

/** A born-digital PDF of `pages` pages (pdf-lib), with `salt` making the bytes unique. */
export async function makePdf(pages, salt = '') {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Section ${p}: Plant Performance ${salt}`, { x: 72, y: 720, size: 18, font: bold });
    for (let l = 0; l < 30; l++) {
      page.drawText(`Line ${l + 1} of page ${p}: output, downtime and quality figures for the period.`, { x: 72, y: 680 - l * 18, size: 10, font: regular });
    }
  }
  return Buffer.from(await pdf.save());
}
