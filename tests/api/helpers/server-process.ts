import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const FIXTURES = join(REPO, 'tests/fixtures/generated');
export const TEST_KEY = 'test-key-foundation-0123456789';

export interface RunningServer {
  url: string;
  port: number;
  home: string;
  key: string;
  ownerKey: string;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait */
  stop(): Promise<void>;
  /** kill -9 and wait */
  kill9(): Promise<void>;
}

export interface StartOptions {
  home?: string;
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
}

/** Start the BUILT server (`node bin/docai.js serve --port 0`) with its own data folder; resolves at `listening on`. */
export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'docai-api-'));
  if (opts.settings) writeFileSync(join(home, 'settings.json'), JSON.stringify(opts.settings));
  const proc = spawn(process.execPath, [join(REPO, 'bin/docai.js'), 'serve', '--port', '0'], {
    cwd: REPO,
    env: { ...process.env, DOCAI_HOME: home, DOCAI_API_KEY: TEST_KEY, DOCAI_WORKERS: '2', ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = () => {
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  const ownerKey = readFileSync(join(home, 'owner.key'), 'utf8').trim();
  const wait = async (sig: NodeJS.Signals) => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(sig);
    await exited;
  };
  return { url, port: Number(new URL(url).port), home, key: TEST_KEY, ownerKey, proc, output: () => out, stop: () => wait('SIGTERM'), kill9: () => wait('SIGKILL') };
}

export function removeHome(home: string): void {
  rmSync(home, { recursive: true, force: true });
}

export function fixture(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** multipart body from (field, value | {name, data}) pairs */
export function form(parts: [string, string | { name: string; data: Buffer }][]): FormData {
  const fd = new FormData();
  for (const [k, v] of parts) {
    if (typeof v === 'string') fd.append(k, v);
    else fd.append(k, new Blob([new Uint8Array(v.data)]), v.name);
  }
  return fd;
}

export async function call(server: RunningServer, method: string, path: string, init: { key?: string | null; body?: FormData | object; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const key = init.key === undefined ? server.key : init.key;
  if (key) headers['api-key'] = key;
  let body: BodyInit | undefined;
  if (init.body instanceof FormData) body = init.body;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(server.url + path, { method, headers, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Poll a task until it leaves PROCESSING. */
export async function waitForTask(server: RunningServer, path: string, key?: string, timeoutMs = 50_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(server, 'GET', path, { key });
    if (r.status !== 200 || r.json?.data?.status !== 'PROCESSING') return r;
    if (Date.now() > end) throw new Error(`task still PROCESSING after ${timeoutMs} ms: ${path}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
