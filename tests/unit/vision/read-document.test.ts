import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { renderDocumentPage } from '../../../engine/vision/render-page.js';
import { DOC_FIXTURES } from '../../fixtures/make-documents.js';

const dir = join(import.meta.dirname, '../../fixtures/generated');
const file = (name: string) => join(dir, name);

describe('renderDocumentPage', () => {
  it('renders a PDF page at 144 dpi in the page model pixel space, ink where the title is', async () => {
    const img = await renderDocumentPage(file(DOC_FIXTURES.digitalPdf), 'pdf', 1);
    expect([img.width, img.height]).toEqual([1224, 1584]);
    // Title baseline y=720 pt at x=72 pt: the row 10 px above the baseline crosses dark glyph pixels.
    let dark = 0;
    const y = (792 - 720) * 2 - 10;
    for (let x = 144; x < 600; x++) if (img.data[(y * img.width + x) * 4]! < 100) dark++;
    expect(dark).toBeGreaterThan(20);
    // The bottom margin is white.
    expect(Array.from(img.data.subarray(((1500 * img.width) + 600) * 4, ((1500 * img.width) + 600) * 4 + 3))).toEqual([255, 255, 255]);
  });

  it('renders the rotated page turned, and at another dpi on request', async () => {
    const img = await renderDocumentPage(file(DOC_FIXTURES.digitalPdf), 'pdf', 3, { dpi: 72 });
    expect([img.width, img.height]).toEqual([700, 500]);
  });

  it('returns an image page in upright pixels', async () => {
    const img = await renderDocumentPage(file(DOC_FIXTURES.tiff3), 'tiff', 2);
    expect([img.width, img.height]).toEqual([300, 200]);
  });

  it('refuses a page that does not exist', async () => {
    await expect(renderDocumentPage(file(DOC_FIXTURES.digitalPdf), 'pdf', 4)).rejects.toMatchObject({ code: 'INVALID_PARAMETER' });
  });
});

describe('readDocument with OCR', () => {
  it('OCRs a scanned PDF page that has no text layer', async () => {
    const doc = await readDocument(file(DOC_FIXTURES.scanPdf), { fileName: 'scan.pdf' });
    expect(doc.pages).toHaveLength(1);
    const page = doc.pages[0]!;
    expect(page.ocr).toBe(true);
    expect([page.width, page.height]).toEqual([1000, 600]);
    const invoice = page.lines.find((l) => l.text.replace(/\s+/g, '').includes('INVOICE'));
    // word spacing is the OCR engine's business; the reading is what this test checks
    expect(invoice?.text.replace(/\s+/g, '')).toBe('INVOICE2024');
    expect(invoice!.source).toBe('ocr');
    // drawn at x=80, baseline 120 with 40 px type
    expect(invoice!.bbox[0]).toBeGreaterThan(60);
    expect(invoice!.bbox[0]).toBeLessThan(100);
    expect(invoice!.bbox[3]).toBeGreaterThan(110);
    expect(invoice!.bbox[1]).toBeLessThan(95);
    expect(page.lines.some((l) => l.text.replace(/\s+/g, '').includes('发票号码12345678'))).toBe(true);
  });

  it('OCRs only the page of a mixed PDF that lacks text, and leaves a blank page alone', async () => {
    const doc = await readDocument(file(DOC_FIXTURES.mixedPdf), { fileName: 'mixed.pdf' });
    expect(doc.pages.map((p) => p.ocr)).toEqual([false, false, true]);
    expect(doc.pages[0]!.lines.map((l) => l.text)).toEqual(['Cover letter with a text layer']);
    expect(doc.pages[1]!.lines).toEqual([]);
    expect(doc.pages[2]!.lines.map((l) => l.text.replace(/\s+/g, '')).join('|')).toContain('Totalamount980.00');
  });

  it('reads an image without OCR when told not to, keeping its size', async () => {
    const doc = await readDocument(file(DOC_FIXTURES.scanPng), { fileName: 'scan.png', ocr: 'never' });
    expect(doc.format).toBe('png');
    expect(doc.pages.map((p) => [p.width, p.height, p.lines.length])).toEqual([[1000, 600, 0]]);
  });

  it('refuses a file of no supported type and an empty file', async () => {
    const { writeFileSync } = await import('node:fs');
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 7]));
    await expect(readDocument(junk, { fileName: 'junk.bin' })).rejects.toMatchObject({ code: 'INVALID_DOCUMENT', message: expect.stringContaining('not a supported document type') });
    const empty = join(dir, 'empty.pdf');
    writeFileSync(empty, '');
    await expect(readDocument(empty, { fileName: 'empty.pdf' })).rejects.toMatchObject({ code: 'INVALID_DOCUMENT', message: 'the file is empty (0 bytes)' });
  });
});
