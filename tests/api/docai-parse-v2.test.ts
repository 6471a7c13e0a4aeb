import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixture, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';
import { TITLE_TEXT } from '../fixtures/make-foundation.js';

let allowing: RunningServer;
let refusing: RunningServer;
let files: Server;
let filesBase: string;

beforeAll(async () => {
  files = createServer((req, res) => {
    if (req.url === '/report.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return res.end(fixture('foundation-title.pdf'));
    }
    if (req.url === '/moved') {
      res.writeHead(302, { location: '/report.pdf' });
      return res.end();
    }
    if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return res.end();
    }
    res.writeHead(404);
    res.end('not here');
  });
  await new Promise<void>((r) => files.listen(0, '127.0.0.1', () => r()));
  filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  [allowing, refusing] = await Promise.all([startServer({ env: { DOCAI_ALLOW_PRIVATE_URLS: '1' } }), startServer()]);
});
afterAll(async () => {
  await Promise.all([allowing.stop(), refusing.stop()]);
  removeHome(allowing.home);
  removeHome(refusing.home);
  files.close();
});

const submit = (s: RunningServer, url: string, model = 'docai-parse-flash') =>
  call(s, 'POST', '/v2/docai/parse/file-url', { body: { file: { file_name: 'report.pdf', file_url: url }, model } });

describe('parse v2 (by URL)', () => {
  it('submit answers only a parse_<uuid> task_id; the download runs in the task; PROCESSING -> SUCCESS with result', async () => {
    const sub = await submit(allowing, `${filesBase}/moved`);
    expect(sub.status).toBe(200);
    expect(Object.keys(sub.json.data)).toEqual(['task_id']);
    expect(sub.json.data.task_id).toMatch(/^parse_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const done = await waitForTask(allowing, `/v2/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    expect(done.json.data.result.file_name).toBe('report.pdf');
    expect(Array.isArray(done.json.data.results)).toBe(false);
    const first = done.json.data.result.nodes[0];
    expect(first.text).toBe(TITLE_TEXT);
    expect(first.type).toBe('Title');
    expect(first.parent_id).toBe(-1);
    expect(typeof first.path_info).toBe('object');
  });

  it('PROCESSING -> ERROR FILE_DOWNLOAD_FAILED for an HTTP error and for a redirect loop', async () => {
    const missing = await submit(allowing, `${filesBase}/absent.pdf`);
    const a = await waitForTask(allowing, `/v2/docai/parse/${missing.json.data.task_id}`);
    expect(a.json.data).toEqual({ task_id: missing.json.data.task_id, status: 'ERROR', err_code: 'FILE_DOWNLOAD_FAILED', err_message: expect.stringContaining('404') });
    const loop = await submit(allowing, `${filesBase}/loop`);
    const b = await waitForTask(allowing, `/v2/docai/parse/${loop.json.data.task_id}`);
    expect(b.json.data.err_code).toBe('FILE_DOWNLOAD_FAILED');
    expect(b.json.data.err_message).toContain('redirects');
    const ftp = await submit(allowing, 'ftp://127.0.0.1/report.pdf');
    const c = await waitForTask(allowing, `/v2/docai/parse/${ftp.json.data.task_id}`);
    expect(c.json.data.err_code).toBe('FILE_DOWNLOAD_FAILED');
  });

  it('refuses loopback URLs unless allowPrivateUrls is set', async () => {
    const sub = await submit(refusing, `${filesBase}/report.pdf`);
    const done = await waitForTask(refusing, `/v2/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('ERROR');
    expect(done.json.data.err_code).toBe('FILE_DOWNLOAD_FAILED');
    expect(done.json.data.err_message).toContain('private network');
    const usage = await call(refusing, 'GET', '/v1/usage');
    expect(usage.json.data.ledger).toEqual([]);
  });

  it('validates the body: model, file, 401, and polls at the v1 path are 409', async () => {
    const badModel = await submit(allowing, `${filesBase}/report.pdf`, 'lite');
    expect(badModel.status).toBe(400);
    expect(badModel.json.err_code).toBe('INVALID_PARAMETER');
    expect(badModel.json.err_message).toContain('lite');
    const noFile = await call(allowing, 'POST', '/v2/docai/parse/file-url', { body: { model: 'docai-parse-flash' } });
    expect(noFile.status).toBe(400);
    expect(noFile.json.err_code).toBe('MISSING_FILE');
    const empty = await call(allowing, 'POST', '/v2/docai/parse/file-url', { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.json.err_code).toBe('EMPTY_TASK');
    const noBody = await fetch(`${allowing.url}/v2/docai/parse/file-url`, { method: 'POST', headers: { 'api-key': allowing.key, 'content-type': 'application/json' } });
    expect(noBody.status).toBe(400);
    expect((await noBody.json()).err_code).toBe('EMPTY_TASK');
    const noKey = await call(allowing, 'POST', '/v2/docai/parse/file-url', { key: null, body: { file: { file_name: 'a.pdf', file_url: 'http://x/a.pdf' }, model: 'docai-parse-flash' } });
    expect(noKey.status).toBe(401);
    const badJson = await fetch(`${allowing.url}/v2/docai/parse/file-url`, { method: 'POST', headers: { 'api-key': allowing.key, 'content-type': 'application/json' }, body: '{"file":' });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).err_code).toBe('INVALID_PARAMETER');
    const sub = await submit(allowing, `${filesBase}/report.pdf`);
    const wrong = await call(allowing, 'GET', `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(wrong.status).toBe(409);
    expect(wrong.json.err_code).toBe('ILLEGALITY_TASK_TYPE');
    const unknown = await call(allowing, 'GET', '/v2/docai/parse/parse_00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.json.err_code).toBe('EMPTY_TASK');
  });
});
