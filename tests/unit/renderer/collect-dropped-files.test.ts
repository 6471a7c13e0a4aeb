import { describe, expect, it } from 'vitest';
import { collectDroppedFiles } from '../../../renderer/features/library/collect-dropped-files.js';

/** Minimal stand-ins for the File System entries a browser hands over on a folder drop. */
function fileEntry(name: string) {
  return { isFile: true, isDirectory: false, name, file: (ok: (f: File) => void) => ok(new File(['x'], name)) };
}
function dirEntry(name: string, children: unknown[], batch = 2) {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      let i = 0;
      // browsers answer readEntries in batches and then with an empty one
      return { readEntries: (ok: (e: unknown[]) => void) => ok(children.slice(i, (i += batch))) };
    },
  };
}

describe('dropped files and folders', () => {
  it('walks folders recursively and keeps only formats the API accepts', async () => {
    const tree = dirEntry('reports', [fileEntry('a.pdf'), fileEntry('notes.md'), dirEntry('scans', [fileEntry('p1.TIFF'), fileEntry('p2.jpg'), fileEntry('.DS_Store')]), fileEntry('b.docx')]);
    const dt = { items: [{ kind: 'file', webkitGetAsEntry: () => tree, getAsFile: () => null }], files: [] } as unknown as DataTransfer;
    const names = (await collectDroppedFiles(dt)).map((f) => f.name);
    expect(names).toEqual(['a.pdf', 'p1.TIFF', 'p2.jpg', 'b.docx']);
  });

  it('takes plain files when the browser gives no entries', async () => {
    const dt = { items: [{ kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => new File(['x'], 'scan.png') }], files: [] } as unknown as DataTransfer;
    expect((await collectDroppedFiles(dt)).map((f) => f.name)).toEqual(['scan.png']);
  });
});
