/**
 * The one object the preload exposes to the window as `window.docai`. Product features go through the
 * public HTTP API; the bridge only hands over where that API is, the owner key, and native dialogs.
 */
export interface DesktopBridge {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** the data folder (settings.json, owner.key, store) */
  readonly dataDir: string;
  /** Native open dialog; resolves to the chosen files' paths (empty when cancelled). */
  openFileDialog(options?: { directories?: boolean; multiple?: boolean }): Promise<string[]>;
  /** Show a file or folder in the system's file manager. */
  revealInFolder(path: string): Promise<void>;
}

export const BRIDGE_NAME = 'docai';
