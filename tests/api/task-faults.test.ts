import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixture, form, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';
import { TITLE_TEXT } from '../fixtures/make-foundation.js';

/**
 * Fault points (DOCAI_FAULT) make the faults deterministic: `worker-crash:<marker>` kills the worker child
 * (SIGKILL) on a file whose name contains the marker, `worker-hang:<marker>` makes it hang.
 */
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    env: { DOCAI_FAULT: 'worker-crash:boom,worker-hang:slow', DOCAI_LINK_TTL: '1' },
    settings: { taskTimeoutBaseSeconds: 8, taskTimeoutPerPageSeconds: 0 },
  });
});
afterAll(async () => {
  await server.stop();
  removeHome(server.home);
});

const file = (name: string) => ({ name, data: fixture('foundation-title.pdf') });

describe('faults', () => {
  it('a worker child killed mid-file fails only that file; the pool replaces it', async () => {
    const before = (await call(server, 'GET', '/v1/health', { key: null })).json.worker_pids as number[];
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', file('boom.pdf')], ['files', file('fine.pdf')]]) });
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    const [crashed, fine] = done.json.data.results;
    expect(crashed).toEqual({ file_name: 'boom.pdf', status: 'FAILED', err_code: 'INVALID_DOCUMENT', err_message: expect.stringContaining('signal SIGKILL') });
    expect(fine.blocks[0].text).toBe(TITLE_TEXT);
    const h = (await call(server, 'GET', '/v1/health', { key: null })).json;
    expect(h.workers).toBe(2);
    expect(h.worker_pids).toHaveLength(2);
    expect(h.worker_pids).not.toEqual(before);
  });

  it('PROCESSING -> ERROR when a file passes the per-task timeout', async () => {
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', file('slow.pdf')]]) });
    const t0 = Date.now();
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('ERROR');
    expect(done.json.data.err_code).toBe('INVALID_DOCUMENT');
    expect(done.json.data.err_message).toBe('processing timed out after 8 s');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(7900);
  });

  it('an expired signed link is 403', async () => {
    const add = await call(server, 'POST', '/v1/files', { body: form([['files', file('kept.pdf')]]) });
    const id = add.json.data.documents[0].doc_id;
    let d: any;
    for (let i = 0; i < 400; i++) {
      d = (await call(server, 'GET', `/v1/files/${id}`)).json.data;
      if (d.status !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(d.status).toBe('SUCCESS');
    expect((await fetch(d.url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    const late = await fetch(d.url);
    expect(late.status).toBe(403);
    expect((await late.json()).err_message).toBe('this link has expired');
  });

  it('50 concurrent submissions: all accepted with distinct ids, none lost', async () => {
    const subs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', file(`c${i}.pdf`)]]) })),
    );
    expect(subs.every((s) => s.status === 200)).toBe(true);
    const ids = new Set(subs.map((s) => s.json.data.task_id));
    expect(ids.size).toBe(50);
    const results = await Promise.all([...ids].map((id) => waitForTask(server, `/v1/docai/parse/${id}`, undefined, 110_000)));
    expect(results.map((r) => r.json.data.status)).toEqual(Array(50).fill('SUCCESS'));
    expect(results.map((r) => r.json.data.results[0].file_name).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `c${i}.pdf`).sort());
  }, 120_000);
});

describe('restart recovery', () => {
  it('kill -9 with a task in flight; the next start resumes it to SUCCESS', async () => {
    const first = await startServer({ env: { DOCAI_FAULT: 'worker-hang:slow' } });
    const sub = await call(first, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', file('slow-then-fine.pdf')]]) });
    const id = sub.json.data.task_id;
    for (let i = 0; i < 50; i++) {
      if ((await call(first, 'GET', '/v1/health', { key: null })).json.busy_workers > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await call(first, 'GET', `/v1/docai/parse/${id}`)).json.data.status).toBe('PROCESSING');
    await first.kill9();
    const second = await startServer({ home: first.home });
    try {
      const done = await waitForTask(second, `/v1/docai/parse/${id}`);
      expect(done.json.data.status).toBe('SUCCESS');
      expect(done.json.data.results[0].file_name).toBe('slow-then-fine.pdf');
      expect(done.json.data.results[0].blocks[0].text).toBe(TITLE_TEXT);
      const usage = await call(second, 'GET', '/v1/usage');
      expect(usage.json.data.ledger.filter((e: any) => e.ref === id)).toHaveLength(1);
    } finally {
      await second.stop();
      removeHome(first.home);
    }
    // SIGTERM is a clean shutdown
    expect(second.proc.exitCode).toBe(0);
  });

  it('the server killed at the moment a result is written: after restart the task finishes once', async () => {
    const first = await startServer({ env: { DOCAI_FAULT: 'result-write:exit' } });
    const sub = await call(first, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', file('crash-at-write.pdf')]]) });
    const id = sub.json.data.task_id;
    await new Promise<void>((r) => (first.proc.exitCode !== null || first.proc.signalCode !== null ? r() : first.proc.once('exit', () => r())));
    expect(first.proc.signalCode).toBe('SIGKILL');
    const second = await startServer({ home: first.home });
    try {
      const done = await waitForTask(second, `/v1/docai/parse/${id}`);
      expect(done.json.data.status).toBe('SUCCESS');
      expect(done.json.data.results[0].blocks[0].text).toBe(TITLE_TEXT);
      const usage = await call(second, 'GET', '/v1/usage');
      expect(usage.json.data.ledger.filter((e: any) => e.ref === id)).toEqual([{ kind: 'parse', pages: 1, ref: id, created_at: expect.any(Number) }]);
    } finally {
      await second.stop();
      removeHome(first.home);
    }
  });

  it('killed after a masked copy is written, then inside the final transaction: the third start finishes once', async () => {
    const s1 = await startServer({ env: { DOCAI_FAULT: 'mask-output:exit' } });
    const sub = await call(s1, 'POST', '/v1/docai/mask', { body: form([['mode', 'emr-mask'], ['files', { name: 'record.pdf', data: fixture('foundation-record.pdf') }]]) });
    const id = sub.json.data.task_id;
    await new Promise<void>((r) => (s1.proc.exitCode !== null || s1.proc.signalCode !== null ? r() : s1.proc.once('exit', () => r())));
    const s2 = await startServer({ home: s1.home, env: { DOCAI_FAULT: 'task-finish:exit' } });
    await new Promise<void>((r) => (s2.proc.exitCode !== null || s2.proc.signalCode !== null ? r() : s2.proc.once('exit', () => r())));
    expect(s2.proc.signalCode).toBe('SIGKILL');
    const s3 = await startServer({ home: s1.home });
    try {
      const done = await waitForTask(s3, `/v1/docai/mask/${id}`);
      expect(done.json.data.status).toBe('SUCCESS');
      const item = done.json.data.results[0];
      expect(item.file_name).toBe('masked_0.pdf');
      const bytes = Buffer.from(await (await fetch(item.url)).arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(bytes.subarray(-1024).toString('latin1')).toContain('%%EOF');
      const usage = await call(s3, 'GET', '/v1/usage');
      expect(usage.json.data.ledger.filter((e: any) => e.ref === id)).toEqual([{ kind: 'mask', pages: 1, ref: id, created_at: expect.any(Number) }]);
    } finally {
      await s3.stop();
      removeHome(s1.home);
    }
  }, 120_000);

  it('disk full while writing a result: the file fails with a message, the task ends ERROR, nothing is charged', async () => {
    const s = await startServer({ env: { DOCAI_FAULT: 'result-write:ENOSPC' } });
    try {
      const sub = await call(s, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', file('full.pdf')]]) });
      const done = await waitForTask(s, `/v1/docai/parse/${sub.json.data.task_id}`);
      expect(done.json.data.status).toBe('ERROR');
      expect(done.json.data.err_message).toContain('disk full');
      expect((await call(s, 'GET', '/v1/usage')).json.data.ledger).toEqual([]);
    } finally {
      await s.stop();
      removeHome(s.home);
    }
  });
});
