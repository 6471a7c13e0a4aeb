import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Run the preload as Electron would (CommonJS), with `require('electron')` answered by a fake. */
function runPreload(bootstrap: unknown) {
  const src = readFileSync(new URL('../../../electron/preload.cts', import.meta.url), 'utf8');
  const js = ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exposed: Record<string, unknown> = {};
  const sent: unknown[][] = [];
  const electron = {
    ipcRenderer: {
      sendSync: (ch: string) => (sent.push(['sendSync', ch]), bootstrap),
      invoke: (...a: unknown[]) => (sent.push(['invoke', ...a]), Promise.resolve(['/x.pdf'])),
    },
    contextBridge: { exposeInMainWorld: (name: string, api: unknown) => (exposed[name] = api) },
  };
  const module = { exports: {} };
  runInNewContext(js, { require: (m: string) => (m === 'electron' ? electron : (() => { throw new Error(`preload may not require ${m}`); })()), module, exports: module.exports });
  return { exposed, sent };
}

describe('preload bridge', () => {
  it('exposes one object with the base URL, key, data folder and two dialogs', async () => {
    const { exposed, sent } = runPreload({ baseUrl: 'http://127.0.0.1:5000', apiKey: 'k1', dataDir: '/d' });
    expect(Object.keys(exposed)).toEqual(['docai']);
    const bridge = exposed.docai as Record<string, unknown> & { openFileDialog(o?: unknown): Promise<string[]>; revealInFolder(p: string): Promise<void> };
    expect(Object.keys(bridge).sort()).toEqual(['apiKey', 'baseUrl', 'dataDir', 'openFileDialog', 'revealInFolder']);
    expect([bridge.baseUrl, bridge.apiKey, bridge.dataDir]).toEqual(['http://127.0.0.1:5000', 'k1', '/d']);
    expect(await bridge.openFileDialog({ directories: true })).toEqual(['/x.pdf']);
    await bridge.revealInFolder('/d');
    expect(sent).toEqual([
      ['sendSync', 'docai:bootstrap'],
      ['invoke', 'docai:open-file-dialog', { directories: true }],
      ['invoke', 'docai:reveal-in-folder', '/d'],
    ]);
  });

  it('exposes nothing when main refuses the frame (a page that is not the app)', () => {
    expect(runPreload(null).exposed).toEqual({});
  });
});
