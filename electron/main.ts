// Electron main process: a thin shell. Everything the window does goes through the engine's public HTTP API.
import { app, BrowserWindow, dialog, ipcMain, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopDataDir } from './data-dir.js';
import { loadEngineServer, startEngineServer } from './engine-host.js';
import { startDesktop } from './main-wiring.js';

const here = dirname(fileURLToPath(import.meta.url)); // <root>/dist/electron
const appRoot = join(here, '..', '..');

startDesktop(
  { app, BrowserWindow, ipcMain, dialog, shell },
  {
    dataDir: desktopDataDir(),
    preloadPath: join(here, 'preload.cjs'),
    startEngine: async (dataDir) => startEngineServer(await loadEngineServer(appRoot), dataDir),
  },
).catch((err: unknown) => {
  dialog.showErrorBox('DocAI could not start', err instanceof Error ? (err.stack ?? err.message) : String(err));
  app.exit(1);
});
