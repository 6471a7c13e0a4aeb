import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, call, fixture, form, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';

const run = promisify(execFile);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ env: { DOCAI_CORS_ORIGINS: 'http://allowed.example' } });
});
afterAll(async () => {
  await server.stop();
  removeHome(server.home);
});

const pdf = () => ({ name: 'report.pdf', data: fixture('foundation-title.pdf') });

describe('keys, balance and usage', () => {
  it('the owner key is made at first start with mode 0600; only it manages keys', async () => {
    expect(statSync(join(server.home, 'owner.key')).mode & 0o777).toBe(0o600);
    const asOwner = await call(server, 'GET', '/v1/keys', { key: server.ownerKey });
    expect(asOwner.status).toBe(200);
    const names = asOwner.json.data.keys.map((k: any) => k.name);
    expect(names).toContain('owner');
    expect(names).toContain('DOCAI_API_KEY');
    expect(JSON.stringify(asOwner.json)).not.toContain(server.ownerKey);
    expect(asOwner.json.data.keys.find((k: any) => k.name === 'DOCAI_API_KEY').owner).toBe(true);
    const plain = (await call(server, 'POST', '/v1/keys', { body: { name: 'plain' } })).json.data.key;
    const asOther = await call(server, 'GET', '/v1/keys', { key: plain });
    expect(asOther.status).toBe(401);
    expect(asOther.json.err_code).toBe('API_UNAUTHORIZED');
    expect((await call(server, 'POST', '/v1/keys', { key: plain, body: { name: 'x' } })).status).toBe(401);
  });

  it('a key with 1 page parses once, then gets 402 INSUFFICIENT_BALANCE and nothing is queued', async () => {
    const created = await call(server, 'POST', '/v1/keys', { key: server.ownerKey, body: { name: 'metered', balance: 1 } });
    expect(created.status).toBe(200);
    const key = created.json.data.key as string;
    expect(key).toMatch(/^dk-/);
    expect(created.json.data.balance).toBe(1);
    const sub = await call(server, 'POST', '/v1/docai/parse', { key, body: form([['mode', 'lite'], ['files', pdf()]]) });
    expect(sub.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`, key);
    expect(done.json.data.status).toBe('SUCCESS');
    const usage = await call(server, 'GET', '/v1/usage', { key });
    expect(usage.json.data.balance).toBe(0);
    expect(usage.json.data.pages_used).toBe(1);
    expect(usage.json.data.ledger).toEqual([{ kind: 'parse', pages: 1, ref: sub.json.data.task_id, created_at: expect.any(Number) }]);
    const refused = await call(server, 'POST', '/v1/docai/parse', { key, body: form([['mode', 'lite'], ['files', pdf()]]) });
    expect(refused.status).toBe(402);
    expect(refused.json).toEqual({ success: false, err_code: 'INSUFFICIENT_BALANCE', err_message: expect.any(String) });
    const v2 = await call(server, 'POST', '/v2/docai/parse/file-url', { key, body: { file: { file_name: 'a.pdf', file_url: 'http://example.invalid/a.pdf' }, model: 'docai-parse-flash' } });
    expect(v2.status).toBe(402);
    const after = await call(server, 'GET', '/v1/usage', { key });
    expect(after.json.data.ledger).toHaveLength(1);
    // another (non-owner) key cannot see this key's task; the owner-level keys can
    const other = (await call(server, 'POST', '/v1/keys', { key: server.ownerKey, body: { name: 'other' } })).json.data.key;
    const foreign = await call(server, 'GET', `/v1/docai/parse/${sub.json.data.task_id}`, { key: other });
    expect(foreign.status).toBe(404);
    expect(foreign.json.err_code).toBe('EMPTY_TASK');
    expect((await call(server, 'GET', `/v1/docai/parse/${sub.json.data.task_id}`)).status).toBe(200);
  });

  it('a revoked key is 401; the owner key cannot be revoked', async () => {
    const created = await call(server, 'POST', '/v1/keys', { key: server.ownerKey, body: { name: 'temp' } });
    const { id, key } = created.json.data;
    expect((await call(server, 'GET', '/v1/usage', { key })).status).toBe(200);
    const del = await call(server, 'DELETE', `/v1/keys/${id}`, { key: server.ownerKey });
    expect(del.status).toBe(200);
    expect(del.json.data.revoked_at).toEqual(expect.any(Number));
    const after = await call(server, 'GET', '/v1/usage', { key });
    expect(after.status).toBe(401);
    const ownerId = (await call(server, 'GET', '/v1/keys', { key: server.ownerKey })).json.data.keys.find((k: any) => k.owner).id;
    const refuse = await call(server, 'DELETE', `/v1/keys/${ownerId}`, { key: server.ownerKey });
    expect(refuse.status).toBe(400);
  });

  it('docai keys create / list / revoke on the command line', async () => {
    const env = { ...process.env, DOCAI_HOME: server.home };
    const created = await run(process.execPath, [join(REPO, 'bin/docai.js'), 'keys', 'create', '--name', 'cli-made', '--balance', '5'], { env });
    const key = created.stdout.trim();
    expect(key).toMatch(/^dk-[A-Za-z0-9_-]{32}$/);
    const usage = await call(server, 'GET', '/v1/usage', { key });
    expect(usage.json.data.balance).toBe(5);
    expect(usage.json.data.name).toBe('cli-made');
    const list = await run(process.execPath, [join(REPO, 'bin/docai.js'), 'keys', 'list'], { env });
    const line = list.stdout.split('\n').find((l) => l.includes('cli-made'))!;
    expect(line).toContain('\t5\t');
    expect(list.stdout).not.toContain(key);
    const id = line.split('\t')[0]!;
    await run(process.execPath, [join(REPO, 'bin/docai.js'), 'keys', 'revoke', id], { env });
    expect((await call(server, 'GET', '/v1/usage', { key })).status).toBe(401);
  });
});

describe('docai serve', () => {
  it('a port already in use, or a data folder another server uses, ends with exit code 1 and a clear message', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const otherHome = mkdtempSync(join(tmpdir(), 'docai-api-'));
    const [busyPort, sameHome] = await Promise.all([
      run(process.execPath, [join(REPO, 'bin/docai.js'), 'serve', '--port', String(server.port)], { env: { ...process.env, DOCAI_HOME: otherHome } }).catch((e) => e),
      run(process.execPath, [join(REPO, 'bin/docai.js'), 'serve', '--port', '0'], { env: { ...process.env, DOCAI_HOME: server.home } }).catch((e) => e),
    ]);
    removeHome(otherHome);
    expect(busyPort.code).toBe(1);
    expect(busyPort.stderr).toContain(`port ${server.port} on 127.0.0.1 is already in use`);
    expect(sameHome.code).toBe(1);
    expect(sameHome.stderr).toContain(`another docai server (pid ${server.proc.pid}) is using the data folder`);
    // the running server still answers
    expect((await call(server, 'GET', '/v1/health', { key: null })).status).toBe(200);
  });
});

describe('library files and signed links', () => {
  it('POST /v1/files indexes a document; its signed link serves the bytes; tampered -> 403', async () => {
    const add = await call(server, 'POST', '/v1/files', { body: form([['files', pdf()]]) });
    expect(add.status).toBe(200);
    const doc = add.json.data.documents[0];
    expect(doc.doc_id).toMatch(/^doc_/);
    expect(doc.status).toBe('PROCESSING');
    let listed: any;
    for (let i = 0; i < 400; i++) {
      listed = (await call(server, 'GET', `/v1/files/${doc.doc_id}`)).json.data;
      if (listed.status !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(listed.status).toBe('SUCCESS');
    expect(listed.page_count).toBe(1);
    const list = await call(server, 'GET', '/v1/files');
    expect(list.json.data.documents.map((d: any) => d.doc_id)).toContain(doc.doc_id);
    const link = new URL(listed.url);
    expect(link.pathname).toBe(`/files/docs/${doc.doc_id}`);
    const got = await fetch(link);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await got.arrayBuffer()).equals(fixture('foundation-title.pdf'))).toBe(true);
    const tampered = new URL(link);
    tampered.searchParams.set('sig', link.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')));
    const bad = await fetch(tampered);
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ success: false, err_code: 'API_UNAUTHORIZED', err_message: 'this link is not valid' });
    const longer = new URL(link);
    longer.searchParams.set('exp', String(Number(link.searchParams.get('exp')) + 3600));
    expect((await fetch(longer)).status).toBe(403);
    const otherPath = new URL(link);
    otherPath.pathname = '/files/docs/doc_other';
    expect((await fetch(otherPath)).status).toBe(403);
    const traversal = await fetch(`${server.url}/files/docs/..%2F..%2Fowner.key?exp=9999999999&sig=x`);
    expect(traversal.status).toBe(403);
    const del = await call(server, 'DELETE', `/v1/files/${doc.doc_id}`);
    expect(del.status).toBe(200);
    expect((await call(server, 'GET', `/v1/files/${doc.doc_id}`)).status).toBe(404);
  });

  it('a parse result is indexed into the library of its key', async () => {
    // bytes of their own (a comment after %%EOF), so no earlier document with the same content exists
    const data = Buffer.concat([fixture('foundation-title.pdf'), Buffer.from('\n% indexed copy\n')]);
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'indexed.pdf', data }]]) });
    await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    const list = await call(server, 'GET', '/v1/files');
    const d = list.json.data.documents.find((x: any) => x.file_name === 'indexed.pdf');
    expect(d.status).toBe('SUCCESS');
  });
});

describe('CORS, health, workspace', () => {
  it('closed by default; an allow-listed origin gets the headers', async () => {
    const pre = (origin: string) =>
      fetch(`${server.url}/v1/docai/parse`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'api-key' } });
    const evil = await pre('http://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBe(null);
    const ok = await pre('http://allowed.example');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://allowed.example');
    expect(ok.headers.get('access-control-allow-headers')).toContain('api-key');
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, path: '/v1/health', headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get('rebound.evil.example')).toBe(403);
    expect(await get(`localhost:${server.port}`)).toBe(200);
    expect(await get(`127.0.0.1:${server.port}`)).toBe(200);
  });

  it('GET /v1/health needs no key and reports the worker pool', async () => {
    const h = await call(server, 'GET', '/v1/health', { key: null });
    expect(h.status).toBe(200);
    expect(h.json.status).toBe('ok');
    expect(h.json.workers).toBe(2);
    expect(h.json.worker_pids).toHaveLength(2);
  });

  it('GET / serves the workspace, or a 503 saying to build it', async () => {
    const r = await fetch(`${server.url}/`);
    const text = await r.text();
    if (r.status === 200) expect(text).toContain('<div id="root">');
    else {
      expect(r.status).toBe(503);
      expect(text).toContain('npm run build');
    }
  });

  it('keys appear in the server output only in the workspace link printed at start', () => {
    const lines = server.output().split('\n');
    expect(lines[0]).toBe(`listening on ${server.url}`);
    expect(lines[1]).toBe(`${server.url}/#key=${server.key}`);
    expect(lines.filter((l) => l.includes(server.key))).toHaveLength(1);
    expect(lines.filter((l) => l.includes(server.ownerKey))).toHaveLength(0);
  });
});
