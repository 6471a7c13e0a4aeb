import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { make } from '../fixtures/make-e2e.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Start `docai serve` for the whole run; the tests read DOCAI_E2E_URL and DOCAI_E2E_KEY. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(join(root, 'dist/renderer/index.html')) || !existsSync(join(root, 'dist/engine/cli.js')))
    throw new Error('e2e needs the built app: run `npm run build` first');
  const fixtures = join(root, 'tests/fixtures/generated');
  mkdirSync(fixtures, { recursive: true });
  await make(fixtures);

  const home = mkdtempSync(join(tmpdir(), 'docai-e2e-'));
  const key = `e2e-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['bin/docai.js', 'serve', '--port', String(port)], {
    cwd: root,
    env: { ...process.env, DOCAI_HOME: home, DOCAI_API_KEY: key },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`docai serve did not start in 60 s:\n${log}`)), 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      log += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`docai serve exited with ${code}:\n${log}`));
    });
  });
  process.env.DOCAI_E2E_URL = url;
  process.env.DOCAI_E2E_KEY = key;
  process.env.DOCAI_E2E_FIXTURES = fixtures;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(home, { recursive: true, force: true });
  };
}
