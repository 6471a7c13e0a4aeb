// Sandboxed preload (CommonJS, no local imports possible): exposes the one typed bridge object.
import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopBridge } from './desktop-bridge.js' with { 'resolution-mode': 'import' };
import type { BootstrapInfo } from './ipc-channels.js' with { 'resolution-mode': 'import' };

// Channel names as in ipc-channels.ts (a sandboxed preload cannot require local files; a test checks they match).
const BOOTSTRAP = 'docai:bootstrap';
const OPEN_FILE_DIALOG = 'docai:open-file-dialog';
const REVEAL_IN_FOLDER = 'docai:reveal-in-folder';

const info = ipcRenderer.sendSync(BOOTSTRAP) as BootstrapInfo | null;

if (info) {
  const bridge: DesktopBridge = {
    baseUrl: info.baseUrl,
    apiKey: info.apiKey,
    dataDir: info.dataDir,
    openFileDialog: (options) => ipcRenderer.invoke(OPEN_FILE_DIALOG, options ?? {}) as Promise<string[]>,
    revealInFolder: (path) => ipcRenderer.invoke(REVEAL_IN_FOLDER, path) as Promise<void>,
  };
  contextBridge.exposeInMainWorld('docai', bridge);
}
