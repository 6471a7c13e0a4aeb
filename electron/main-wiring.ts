import type { BrowserWindow, BrowserWindowConstructorOptions, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { isAppUrl } from './app-url.js';
import { IPC, type BootstrapInfo } from './ipc-channels.js';

/** The part of Electron's API the shell uses; a test passes a fake. */
export interface ElectronApi {
  app: Pick<
    typeof import('electron').app,
    'setPath' | 'requestSingleInstanceLock' | 'quit' | 'exit' | 'on' | 'whenReady' | 'getName'
  >;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  ipcMain: Pick<typeof import('electron').ipcMain, 'handle' | 'on'>;
  dialog: Pick<typeof import('electron').dialog, 'showOpenDialog'>;
  shell: Pick<typeof import('electron').shell, 'showItemInFolder'>;
}

/** The engine's API server running in this process. */
export interface EngineHandle {
  baseUrl: string;
  ownerKey: string;
  close(): Promise<void>;
}

export interface DesktopOptions {
  dataDir: string;
  preloadPath: string;
  startEngine(dataDir: string): Promise<EngineHandle>;
}

export interface Desktop {
  engine: EngineHandle;
  window: BrowserWindow;
}

/** Security options of every window: the page is the app served over HTTP, with no Node and a sandboxed preload. */
export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1360,
    height: 880,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'DocAI',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/** Navigation and new windows to anything but the app are refused. */
export function guardWebContents(contents: WebContents, baseUrl: string): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  const refuseForeign = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url, baseUrl)) event.preventDefault();
  };
  contents.on('will-navigate', refuseForeign);
  contents.on('will-redirect', refuseForeign);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.session.setPermissionRequestHandler((wc, permission, callback) => {
    callback(permission === 'clipboard-sanitized-write' && isAppUrl(wc.getURL(), baseUrl));
  });
}

/**
 * Start the desktop app: one instance, the engine in this process, one window on the engine's address.
 * Returns null when another instance already runs (that one is focused instead).
 */
export async function startDesktop(electron: ElectronApi, opts: DesktopOptions): Promise<Desktop | null> {
  const { app, ipcMain, dialog, shell } = electron;
  app.setPath('userData', opts.dataDir);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();
  const engine = await opts.startEngine(opts.dataDir);
  const info: BootstrapInfo = { baseUrl: engine.baseUrl, apiKey: engine.ownerKey, dataDir: opts.dataDir };

  const fromApp = (e: IpcMainEvent | IpcMainInvokeEvent) => isAppUrl(e.senderFrame?.url ?? '', engine.baseUrl);
  ipcMain.on(IPC.bootstrap, (e) => {
    e.returnValue = fromApp(e) ? info : null;
  });
  ipcMain.handle(IPC.openFileDialog, async (e, o: { directories?: boolean; multiple?: boolean } = {}) => {
    if (!fromApp(e)) return [];
    const props: ('openFile' | 'openDirectory' | 'multiSelections')[] = [o.directories ? 'openDirectory' : 'openFile'];
    if (o.multiple !== false) props.push('multiSelections');
    const r = await dialog.showOpenDialog({ properties: props });
    return r.canceled ? [] : r.filePaths;
  });
  ipcMain.handle(IPC.revealInFolder, (e, path: unknown) => {
    if (fromApp(e) && typeof path === 'string' && path) shell.showItemInFolder(path);
  });

  let window = openWindow(electron, opts.preloadPath, engine.baseUrl);
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('activate', () => {
    if (window.isDestroyed()) window = openWindow(electron, opts.preloadPath, engine.baseUrl);
  });
  app.on('window-all-closed', () => app.quit());

  // Stop the server and let running tasks be picked up at the next start (the engine resumes unfinished tasks).
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    void engine.close().finally(() => app.exit(0));
  });
  return { engine, window };
}

function openWindow(electron: ElectronApi, preloadPath: string, baseUrl: string): BrowserWindow {
  const win = new electron.BrowserWindow(windowOptions(preloadPath));
  guardWebContents(win.webContents, baseUrl);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${baseUrl}/`);
  return win;
}
