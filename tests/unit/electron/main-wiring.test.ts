import { readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { guardWebContents, startDesktop, windowOptions, type ElectronApi, type EngineHandle } from '../../../electron/main-wiring.js';
import { IPC } from '../../../electron/ipc-channels.js';
import { isAppUrl } from '../../../electron/app-url.js';
import { desktopDataDir } from '../../../electron/data-dir.js';
import { fileURLToPath } from 'node:url';
import { loadEngineServer, portOrFree, startEngineServer } from '../../../electron/engine-host.js';

/** A stand-in for Electron's API that records what the shell asks of it. */
function fakeElectron(opts: { lock?: boolean } = {}) {
  const calls: string[] = [];
  const appEvents = new EventEmitter();
  const windows: FakeWindow[] = [];
  const ipcOn = new Map<string, (e: unknown, ...a: unknown[]) => void>();
  const ipcHandle = new Map<string, (e: unknown, ...a: unknown[]) => unknown>();
  let permissionHandler: ((wc: { getURL(): string }, p: string, cb: (ok: boolean) => void) => void) | null = null;

  class FakeContents extends EventEmitter {
    openHandler: ((d: { url: string }) => { action: string }) | null = null;
    url = '';
    session = { setPermissionRequestHandler: (h: typeof permissionHandler) => (permissionHandler = h) };
    setWindowOpenHandler(h: (d: { url: string }) => { action: string }) {
      this.openHandler = h;
    }
    getURL() {
      return this.url;
    }
  }
  class FakeWindow extends EventEmitter {
    webContents = new FakeContents();
    loaded: string | null = null;
    constructor(readonly options: Electron.BrowserWindowConstructorOptions) {
      super();
      windows.push(this);
    }
    loadURL(url: string) {
      this.loaded = url;
      this.webContents.url = url;
      return Promise.resolve();
    }
    isMinimized() {
      return false;
    }
    isDestroyed() {
      return false;
    }
    restore() {}
    focus() {
      calls.push('focus');
    }
    show() {}
  }
  const electron = {
    app: {
      setPath: (name: string, p: string) => calls.push(`setPath ${name} ${p}`),
      requestSingleInstanceLock: () => opts.lock ?? true,
      quit: () => calls.push('quit'),
      exit: (code: number) => calls.push(`exit ${code}`),
      on: (ev: string, fn: (...a: unknown[]) => void) => appEvents.on(ev, fn),
      whenReady: () => Promise.resolve(),
      getName: () => 'DocAI',
    },
    BrowserWindow: FakeWindow,
    ipcMain: {
      on: (ch: string, fn: (e: unknown, ...a: unknown[]) => void) => ipcOn.set(ch, fn),
      handle: (ch: string, fn: (e: unknown, ...a: unknown[]) => unknown) => ipcHandle.set(ch, fn),
    },
    dialog: { showOpenDialog: async () => ({ canceled: false, filePaths: ['/tmp/a.pdf'] }) },
    shell: { showItemInFolder: (p: string) => calls.push(`reveal ${p}`) },
  } as unknown as ElectronApi;
  return { electron, calls, appEvents, windows, ipcOn, ipcHandle, permission: () => permissionHandler };
}

function fakeEngine(calls: string[]): EngineHandle {
  return { baseUrl: 'http://127.0.0.1:45678', ownerKey: 'owner-key-123', close: async () => void calls.push('engine closed') };
}

describe('electron main wiring', () => {
  it('opens one window on the engine address with the security options', async () => {
    const f = fakeElectron();
    const desk = await startDesktop(f.electron, { dataDir: '/data/DocAI', preloadPath: '/app/preload.cjs', startEngine: async () => fakeEngine(f.calls) });
    expect(desk).not.toBeNull();
    expect(f.calls[0]).toBe('setPath userData /data/DocAI');
    expect(f.windows).toHaveLength(1);
    const w = f.windows[0]!;
    expect(w.loaded).toBe('http://127.0.0.1:45678/');
    const wp = w.options.webPreferences!;
    expect(wp.contextIsolation).toBe(true);
    expect(wp.sandbox).toBe(true);
    expect(wp.nodeIntegration).toBe(false);
    expect(wp.webSecurity).toBe(true);
    expect(wp.preload).toBe('/app/preload.cjs');
  });

  it('refuses navigation and new windows to anything but the app', async () => {
    const f = fakeElectron();
    await startDesktop(f.electron, { dataDir: '/d', preloadPath: '/p.cjs', startEngine: async () => fakeEngine(f.calls) });
    const wc = f.windows[0]!.webContents;
    expect(wc.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(wc.openHandler!({ url: 'http://127.0.0.1:45678/x' })).toEqual({ action: 'deny' });
    let prevented = 0;
    const ev = { preventDefault: () => prevented++ };
    wc.emit('will-navigate', ev, 'https://evil.example/');
    expect(prevented).toBe(1);
    wc.emit('will-navigate', ev, 'http://127.0.0.1:45678/#key=x');
    expect(prevented).toBe(1);
    wc.emit('will-redirect', ev, 'http://127.0.0.1:1/');
    expect(prevented).toBe(2);
    const answers: boolean[] = [];
    f.permission()!({ getURL: () => 'http://127.0.0.1:45678/' }, 'media', (ok) => answers.push(ok));
    f.permission()!({ getURL: () => 'http://127.0.0.1:45678/' }, 'clipboard-sanitized-write', (ok) => answers.push(ok));
    expect(answers).toEqual([false, true]);
  });

  it('hands the key only to the app frame through the bootstrap channel', async () => {
    const f = fakeElectron();
    await startDesktop(f.electron, { dataDir: '/d', preloadPath: '/p.cjs', startEngine: async () => fakeEngine(f.calls) });
    const boot = f.ipcOn.get(IPC.bootstrap)!;
    const good: { returnValue?: unknown; senderFrame: { url: string } } = { senderFrame: { url: 'http://127.0.0.1:45678/' } };
    boot(good);
    expect(good.returnValue).toEqual({ baseUrl: 'http://127.0.0.1:45678', apiKey: 'owner-key-123', dataDir: '/d' });
    const bad: { returnValue?: unknown; senderFrame: { url: string } } = { senderFrame: { url: 'https://evil.example/' } };
    boot(bad);
    expect(bad.returnValue).toBeNull();
    await f.ipcHandle.get(IPC.revealInFolder)!({ senderFrame: { url: 'http://127.0.0.1:45678/' } }, '/d');
    expect(f.calls).toContain('reveal /d');
    expect(await f.ipcHandle.get(IPC.openFileDialog)!({ senderFrame: { url: 'http://127.0.0.1:45678/' } }, {})).toEqual(['/tmp/a.pdf']);
  });

  it('quits when another instance holds the lock, without starting the engine', async () => {
    const f = fakeElectron({ lock: false });
    let started = false;
    const desk = await startDesktop(f.electron, { dataDir: '/d', preloadPath: '/p.cjs', startEngine: async () => ((started = true), fakeEngine(f.calls)) });
    expect(desk).toBeNull();
    expect(started).toBe(false);
    expect(f.calls).toContain('quit');
  });

  it('closes the engine before exiting, and focuses the window on a second instance', async () => {
    const f = fakeElectron();
    await startDesktop(f.electron, { dataDir: '/d', preloadPath: '/p.cjs', startEngine: async () => fakeEngine(f.calls) });
    f.appEvents.emit('second-instance');
    expect(f.calls).toContain('focus');
    let prevented = false;
    f.appEvents.emit('before-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(f.calls.slice(-2)).toEqual(['engine closed', 'exit 0']);
  });

  it('window options alone carry the same security settings', () => {
    const o = windowOptions('/x.cjs').webPreferences!;
    expect([o.contextIsolation, o.sandbox, o.nodeIntegration, o.webviewTag]).toEqual([true, true, false, false]);
  });

  it('the sandboxed preload uses the same channel names as main', () => {
    const src = readFileSync(new URL('../../../electron/preload.cts', import.meta.url), 'utf8');
    for (const ch of Object.values(IPC)) expect(src).toContain(`'${ch}'`);
    expect(src.match(/exposeInMainWorld/g)).toHaveLength(1);
  });

  it('app URLs are exactly the engine origin', () => {
    expect(isAppUrl('http://127.0.0.1:45678/a?b#c', 'http://127.0.0.1:45678')).toBe(true);
    expect(isAppUrl('http://localhost:45678/', 'http://127.0.0.1:45678')).toBe(false);
    expect(isAppUrl('file:///etc/passwd', 'http://127.0.0.1:45678')).toBe(false);
    expect(isAppUrl('not a url', 'http://127.0.0.1:45678')).toBe(false);
  });

  it('data folder follows ARCHITECTURE.md, DOCAI_HOME first', () => {
    expect(desktopDataDir({ DOCAI_HOME: '/x' }, 'linux', '/home/u')).toBe('/x');
    expect(desktopDataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/DocAI');
    expect(desktopDataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/DocAI');
    expect(desktopDataDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u')).toMatch(/Roaming[\\/]DocAI$/);
  });

  it('a busy port gives way to a free one', async () => {
    const { createServer } = await import('node:net');
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const busy = (s.address() as { port: number }).port;
    expect(await portOrFree(busy, '127.0.0.1')).toBe(0);
    s.close();
    await new Promise((r) => setTimeout(r, 20));
    expect(await portOrFree(busy, '127.0.0.1')).toBe(busy);
  });
});

describe('the shell starts the real engine server', () => {
  it('createServer from dist/engine/api/server.js listens, answers the owner key, and closes', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'docai-electron-'));
    // the compiled engine, as Electron loads it (npm test builds first)
    const mod = await loadEngineServer(fileURLToPath(new URL('../../../', import.meta.url)));
    const handle = await startEngineServer(mod, dir);
    try {
      expect(handle.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(readFileSync(join(dir, 'owner.key'), 'utf8').trim()).toBe(handle.ownerKey);
      const res = await fetch(`${handle.baseUrl}/v1/usage`, { headers: { 'api-key': handle.ownerKey } });
      expect(res.status).toBe(200);
      const refused = await fetch(`${handle.baseUrl}/v1/usage`, { headers: { 'api-key': 'wrong' } });
      expect(refused.status).toBe(401);
    } finally {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
