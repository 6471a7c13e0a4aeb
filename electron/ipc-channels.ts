/** IPC channel names shared by main and preload (strings only: the preload is sandboxed CommonJS). */
export const IPC = {
  bootstrap: 'docai:bootstrap',
  openFileDialog: 'docai:open-file-dialog',
  revealInFolder: 'docai:reveal-in-folder',
} as const;

/** What the preload asks for once, synchronously, to build the bridge. */
export interface BootstrapInfo {
  baseUrl: string;
  apiKey: string;
  dataDir: string;
}
