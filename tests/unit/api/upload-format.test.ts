import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectUploadFormat } from '../../../engine/api/upload-format.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-fmt-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function zipWith(names: string[], comment?: string): Promise<string> {
  const zip = new JSZip();
  for (const n of names) zip.file(n, `<x>${n}</x>`);
  const p = join(dir, `${names.length}-${Math.random()}.zip`);
  writeFileSync(p, await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', ...(comment ? { comment } : {}) }));
  return p;
}

describe('detectUploadFormat', () => {
  it('tells OOXML apart by central-directory names, without reading the whole file', async () => {
    expect(await detectUploadFormat(await zipWith(['[Content_Types].xml', 'word/document.xml']), 'a.bin')).toBe('docx');
    expect(await detectUploadFormat(await zipWith(['[Content_Types].xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']), 'a')).toBe('xlsx');
    expect(await detectUploadFormat(await zipWith(['ppt/presentation.xml'], 'a zip comment'), 'a.pptx')).toBe('pptx');
    expect(await detectUploadFormat(await zipWith(['readme.txt']), 'a.docx')).toBe(null);
  });

  it('a cut-off zip is not a document; other formats go to detectFormat', async () => {
    const full = await zipWith(['word/document.xml']);
    const cut = join(dir, 'cut.docx');
    const { readFileSync } = await import('node:fs');
    writeFileSync(cut, readFileSync(full).subarray(0, 40));
    expect(await detectUploadFormat(cut, 'cut.docx')).toBe(null);
    const pdf = join(dir, 'a.pdf');
    writeFileSync(pdf, '%PDF-1.7\n%%EOF\n');
    expect(await detectUploadFormat(pdf, 'a.pdf')).toBe('pdf');
  });
});
