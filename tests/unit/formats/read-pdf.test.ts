import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { DOC_FIXTURES } from '../../fixtures/make-documents.js';
import type { Page, TextLine } from '../../../engine/core/page.js';

const dir = join(import.meta.dirname, '../../fixtures/generated');
const file = (name: string) => join(dir, name);

function lineWith(page: Page, text: string): TextLine {
  const line = page.lines.find((l) => l.text.includes(text));
  if (!line) throw new Error(`no line with "${text}" in: ${page.lines.map((l) => l.text).join(' | ')}`);
  return line;
}

/** A pdf-lib point (x, baseline y) on a 792 pt page, as page pixels (144 dpi, top-left origin). */
const px = (x: number) => x * 2;
const py = (y: number) => (792 - y) * 2;

describe('born-digital PDF', async () => {
  const doc = await readDocument(file(DOC_FIXTURES.digitalPdf), { fileName: 'report.pdf', ocr: 'never' });

  it('has three pages at 144 dpi with CropBox and /Rotate applied', () => {
    expect(doc.format).toBe('pdf');
    expect(doc.pages.map((p) => [p.width, p.height])).toEqual([
      [1224, 1584],
      [1224, 1584],
      [1400, 1000], // CropBox 500 x 700 pt, turned 90 degrees
    ]);
    expect(doc.pages.every((p) => !p.ocr)).toBe(true);
  });

  it('reads the title with its box, size and weight', () => {
    const title = lineWith(doc.pages[0]!, 'Annual Report 2024');
    expect(title.text).toBe('Annual Report 2024');
    expect(title.bold).toBe(true);
    expect(title.fontSize).toBeCloseTo(48, 0);
    expect(title.bbox[0]).toBeCloseTo(px(72), -1);
    // baseline at y=720 pt: the box spans it (ascent above, descent below)
    expect(title.bbox[1]).toBeLessThan(py(720));
    expect(title.bbox[3]).toBeGreaterThan(py(720));
    expect(title.bbox[3] - title.bbox[1]).toBeGreaterThan(40);
    expect(title.bbox[3] - title.bbox[1]).toBeLessThan(70);
    expect(title.source).toBe('text');
  });

  it('tells body text from bold headings', () => {
    const body = lineWith(doc.pages[0]!, 'This report describes');
    expect(body.bold).toBe(false);
    expect(body.fontSize).toBeCloseTo(22, 0);
    expect(lineWith(doc.pages[0]!, '1. Overview').bold).toBe(true);
  });

  it('reads Chinese text through the embedded CJK font', () => {
    const cn = lineWith(doc.pages[0]!, '营业收入');
    expect(cn.text).toBe('营业收入同比增长百分之十二');
    expect(cn.bbox[0]).toBeCloseTo(px(72), -1);
  });

  it('keeps the two columns apart', () => {
    const left = lineWith(doc.pages[0]!, 'Revenue grew in every region');
    const right = lineWith(doc.pages[0]!, 'Risks include currency');
    expect(left.text).toBe('Revenue grew in every region this year.');
    expect(right.text).toBe('Risks include currency movements.');
    expect(right.bbox[0]).toBeCloseTo(px(330), -1);
    expect(Math.abs(left.bbox[1] - right.bbox[1])).toBeLessThan(2);
  });

  it('finds the ruling lines of the table and keeps cells as separate lines', () => {
    const p2 = doc.pages[1]!;
    const horizontal = p2.rules.filter((r) => r.y1 === r.y2 && r.x2 - r.x1 > 900);
    const vertical = p2.rules.filter((r) => r.x1 === r.x2 && r.y2 - r.y1 > 150);
    expect(horizontal.map((r) => Math.round(r.y1)).sort((a, b) => a - b)).toEqual([py(680), py(656), py(632), py(608), py(584)]);
    expect(vertical.map((r) => Math.round(r.x1)).sort((a, b) => a - b)).toEqual([px(72), px(232), px(392), px(552)]);
    const revenue = lineWith(p2, 'Revenue');
    expect(revenue.text).toBe('Revenue');
    const cell = lineWith(p2, '1,344');
    expect(cell.text).toBe('1,344');
    expect(cell.bbox[0]).toBeCloseTo(px(398), -1);
    expect(lineWith(p2, 'Item').bold).toBe(true);
  });

  it('maps text on a cropped, rotated page into the turned page pixels', () => {
    const line = lineWith(doc.pages[2]!, 'Appendix rotated page');
    expect(line.text).toBe('Appendix rotated page');
    // user (100, 600) with CropBox origin (50, 50), turned 90 clockwise -> x = (600-50)*2, y = (100-50)*2
    expect(line.bbox[0]).toBeCloseTo(1100, -1);
    expect(line.bbox[3]).toBeGreaterThan(95);
    expect(line.bbox[1]).toBeLessThan(100);
    expect(line.bbox[2]).toBeGreaterThan(1100 + 200);
  });
});

describe('fake bold', () => {
  it('keeps one copy of a string drawn twice and marks it bold', async () => {
    const doc = await readDocument(file(DOC_FIXTURES.fakeBoldPdf), { fileName: 'f.pdf', ocr: 'never' });
    expect(doc.pages[0]!.lines.map((l) => [l.text, l.bold])).toEqual([
      ['重要提示', true],
      ['本报告未经审计。', false],
    ]);
  });
});

describe('PDF form fields', () => {
  it('reads a filled text field value at its widget rectangle', async () => {
    const doc = await readDocument(file(DOC_FIXTURES.formPdf), { fileName: 'form.pdf', ocr: 'never' });
    const texts = doc.pages[0]!.lines.map((l) => l.text);
    expect(texts).toContain('Patient:');
    const value = lineWith(doc.pages[0]!, 'John Smith');
    expect(value.text).toBe('John Smith');
    // inside the widget rectangle (give or take its border), whether read from its appearance or its value
    expect(value.bbox[0]).toBeGreaterThanOrEqual(px(150) - 2);
    expect(value.bbox[1]).toBeGreaterThanOrEqual(py(720) - 2);
    expect(value.bbox[2]).toBeLessThanOrEqual(px(350) + 2);
    expect(value.bbox[3]).toBeLessThanOrEqual(py(700) + 2);
    expect(texts.filter((t) => t.includes('John Smith'))).toHaveLength(1);
  });
});

describe('PDF text layers that cannot be trusted', () => {
  it('drops a text layer whose ToUnicode map yields private-use characters', async () => {
    const doc = await readDocument(file(DOC_FIXTURES.garbledPdf), { fileName: 'g.pdf', ocr: 'never' });
    expect(doc.pages).toHaveLength(1);
    expect(doc.pages[0]!.lines).toEqual([]);
  });
});

describe('damaged and refused PDFs', () => {
  it('refuses an encrypted PDF', async () => {
    await expect(readDocument(file(DOC_FIXTURES.encryptedPdf), { fileName: 'e.pdf' })).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
      message: expect.stringContaining('encrypted'),
    });
  });
  it('refuses a PDF without pages', async () => {
    await expect(readDocument(file(DOC_FIXTURES.zeroPagePdf), { fileName: 'z.pdf' })).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
      message: 'the PDF has no pages',
    });
  });
  it('never hangs or crashes on a bit-flipped PDF: it reads what survives or refuses the file', async () => {
    try {
      const doc = await readDocument(file(DOC_FIXTURES.bitFlippedPdf), { fileName: 'b.pdf', ocr: 'never' });
      expect(doc.pages.length).toBeGreaterThan(0);
    } catch (err) {
      expect(err).toMatchObject({ code: 'INVALID_DOCUMENT' });
    }
  });
  it('refuses a page tree that contains itself', async () => {
    await expect(readDocument(file(DOC_FIXTURES.cyclicPdf), { fileName: 'c.pdf', ocr: 'never' })).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
  });
  it('refuses a truncated PDF', async () => {
    await expect(readDocument(file(DOC_FIXTURES.truncatedPdf), { fileName: 't.pdf', ocr: 'never' })).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
  });
});
