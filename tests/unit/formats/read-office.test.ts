import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { DOC_FIXTURES, hasSoffice } from '../../fixtures/make-documents.js';
import type { DocumentPages, SourceBlock, TableGrid } from '../../../engine/core/page.js';

const dir = join(import.meta.dirname, '../../fixtures/generated');
const file = (name: string) => join(dir, name);
const read = (name: string) => readDocument(file(name), { fileName: name });
const legacyAvailable = hasSoffice() || Boolean(process.env.CI);
/** The three LibreOffice conversions start together: each one mostly waits on LibreOffice starting up. */
const legacy = legacyAvailable
  ? Promise.allSettled([read(DOC_FIXTURES.doc), read(DOC_FIXTURES.xls), read(DOC_FIXTURES.ppt)])
  : Promise.resolve([] as PromiseSettledResult<DocumentPages>[]);
async function legacyDoc(i: number): Promise<DocumentPages> {
  const r = (await legacy)[i]!;
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

function blocks(doc: DocumentPages): (SourceBlock & { page: number })[] {
  return doc.pages.flatMap((p) => (p.sourceBlocks ?? []).map((b) => ({ ...b, page: p.pageNumber })));
}

function cell(t: TableGrid, row: number, col: number) {
  const c = t.cells.find((x) => x.row === row && x.col === col);
  if (!c) throw new Error(`no cell at ${row},${col}`);
  return c;
}

/** Checks shared by the DOCX and the DOC converted from it. */
function expectReport(doc: DocumentPages) {
  const bs = blocks(doc);
  expect(doc.pages).toHaveLength(2);
  expect(doc.pages[0]!.width).toBe(1190);
  expect(doc.pages[0]!.height).toBe(1684);
  const titles = bs.filter((b) => b.type === 'Title').map((b) => [b.text, b.level, b.page]);
  expect(titles).toEqual([
    ['Quarterly Business Review', 1, 1],
    ['1. Results', 1, 1],
    ['1.1 By region', 2, 1],
    ['2. Outlook', 1, 2],
  ]);
  const texts = bs.filter((b) => b.type === 'Text').map((b) => b.text);
  expect(texts).toContain('Revenue rose 12% to 1,344 million in the quarter.');
  expect(texts).toContain('• North grew fastest');
  expect(texts).toContain('本季度净利润为一亿元。');
  const table = bs.find((b) => b.type === 'Table')!.table!;
  expect([table.rows, table.cols]).toEqual([4, 3]);
  expect(cell(table, 1, 0)).toMatchObject({ text: 'North', rowSpan: 2, colSpan: 1 });
  expect(cell(table, 3, 0)).toMatchObject({ text: 'Total', rowSpan: 1, colSpan: 2 });
  expect(cell(table, 3, 2).text).toBe('460');
  expect(table.cells.find((c) => c.row === 2 && c.col === 0)).toBeUndefined();
  // The merged cell spans the boxes of the cells beside it.
  const north = cell(table, 1, 0);
  expect(north.bbox[1]).toBe(cell(table, 1, 1).bbox[1]);
  expect(north.bbox[3]).toBe(cell(table, 2, 1).bbox[3]);
  // Blocks follow each other down the page, inside the margins.
  const p1 = bs.filter((b) => b.page === 1);
  for (let i = 1; i < p1.length; i++) expect(p1[i]!.bbox[1]).toBeGreaterThanOrEqual(p1[i - 1]!.bbox[3]);
  for (const b of p1) {
    expect(b.bbox[0]).toBeGreaterThanOrEqual(144);
    expect(b.bbox[2]).toBeLessThanOrEqual(1190 - 144);
  }
  // Every block has lines under it, and the lines carry the same text.
  const lineText = doc.pages[0]!.lines.map((l) => l.text).join('\n');
  expect(lineText).toContain('Quarterly Business Review');
  expect(lineText).toContain('North');
}

describe('Word documents', () => {
  it('reads headings with levels, lists, a table with merged cells and page breaks from DOCX', async () => {
    const doc = await read(DOC_FIXTURES.docx);
    expect(doc.format).toBe('docx');
    expectReport(doc);
  });

  it("lays pages out at each section's own size, margins and run sizes", async () => {
    const doc = await read(DOC_FIXTURES.sectionsDocx);
    expect(doc.pages.map((p) => [p.width, p.height])).toEqual([
      [1224, 1584],
      [1684, 1190],
    ]);
    const bs = blocks(doc);
    expect(bs.map((b) => [b.type, b.text, b.page])).toEqual([
      ['Title', 'Letter section', 1],
      ['Text', 'Body at twelve points.', 1],
      ['Text', 'Landscape appendix', 2],
    ]);
    // Half-inch margins are 72 px at 144 dpi; one inch is 144 px.
    expect(bs[0]!.bbox[0]).toBe(72);
    expect(bs[0]!.bbox[1]).toBeGreaterThanOrEqual(72);
    expect(bs[2]!.bbox.slice(0, 2)).toEqual([144, 144]);
    const size = (text: string) => doc.pages.flatMap((p) => p.lines).find((l) => l.text === text)!.fontSize;
    expect(size('Body at twelve points.')).toBe(24);
    expect(size('Landscape appendix')).toBe(18);
  });

  it.skipIf(!legacyAvailable)('reads the legacy .doc through LibreOffice', async () => {
    const doc = await legacyDoc(0);
    expect(doc.format).toBe('doc');
    expectReport(doc);
  });
});

describe('OOXML variants', () => {
  it('reads macro and template variants (.docm .dotx .xlsm .potm) by content, whatever the name says', async () => {
    const { copyFileSync } = await import('node:fs');
    for (const [src, name, format] of [
      [DOC_FIXTURES.docx, 'copy.docm', 'docx'],
      [DOC_FIXTURES.docx, 'copy.dotx', 'docx'],
      [DOC_FIXTURES.xlsx, 'copy.xlsm', 'xlsx'],
      [DOC_FIXTURES.pptx, 'copy.potm', 'pptx'],
    ] as const) {
      copyFileSync(file(src), file(name));
      const doc = await readDocument(file(name), { fileName: name });
      expect(doc.format).toBe(format);
      expect(doc.pages.length).toBeGreaterThan(0);
    }
  });
});

describe('workbooks', () => {
  function expectSheet(doc: DocumentPages) {
    const bs = blocks(doc);
    expect(bs.filter((b) => b.type === 'Title').map((b) => [b.text, b.page])).toEqual([
      ['Revenue', 1],
      ['Notes', 2],
    ]);
    const t = bs.find((b) => b.type === 'Table' && b.page === 1)!.table!;
    expect([t.rows, t.cols]).toEqual([4, 3]);
    expect(cell(t, 0, 0).text).toBe('Region');
    expect(cell(t, 1, 2).text).toBe('560');
    expect(cell(t, 2, 2).text).toBe('0.3');
    expect(cell(t, 3, 0)).toMatchObject({ text: 'Total (merged)', colSpan: 2 });
    expect(cell(t, 3, 2).text).toBe('860');
    const notes = bs.find((b) => b.type === 'Table' && b.page === 2)!.table!;
    // the used range starts at B2: one cell, NFKC turns the full-width colon into ':'
    expect(notes.cells).toHaveLength(1);
    expect(notes.cells[0]!.text).toBe('备注:数据未经审计');
  }

  it('reads each sheet as a title and a table of its used range (XLSX)', async () => {
    const doc = await read(DOC_FIXTURES.xlsx);
    expect(doc.format).toBe('xlsx');
    expectSheet(doc);
  });

  it.skipIf(!legacyAvailable)('reads the legacy .xls through LibreOffice', async () => {
    const doc = await legacyDoc(1);
    expect(doc.format).toBe('xls');
    expectSheet(doc);
  });
});

describe('presentations', () => {
  it('reads slides at their real size with titles, frames and tables (PPTX)', async () => {
    const doc = await read(DOC_FIXTURES.pptx);
    expect(doc.format).toBe('pptx');
    expect(doc.pages.map((p) => [p.width, p.height])).toEqual([
      [1920, 1080],
      [1920, 1080],
    ]);
    const bs = blocks(doc);
    const t1 = bs.find((b) => b.type === 'Title' && b.page === 1)!;
    expect(t1.text).toBe('Strategy 2025');
    // own frame at x = 838200 EMU = 132 px (plus the text inset)
    expect(t1.bbox[0]).toBeGreaterThanOrEqual(132);
    expect(t1.bbox[0]).toBeLessThan(160);
    expect(t1.bbox[1]).toBeGreaterThanOrEqual(57);
    // 44 pt type at 144 dpi
    expect(doc.pages[0]!.lines.find((l) => l.text === 'Strategy 2025')!.fontSize).toBe(88);
    expect(bs.find((b) => b.type === 'Text' && b.page === 1)!.text).toBe('• Grow recurring revenue\n• Open two new markets');
    const t2 = bs.find((b) => b.type === 'Title' && b.page === 2)!;
    expect(t2.text).toBe('Financials');
    // no frame of its own: the layout placeholder at x = 457200 EMU = 72 px
    expect(t2.bbox[0]).toBeGreaterThanOrEqual(72);
    expect(t2.bbox[0]).toBeLessThan(100);
    const table = bs.find((b) => b.type === 'Table')!.table!;
    expect([table.rows, table.cols]).toEqual([3, 3]);
    expect(cell(table, 0, 1)).toMatchObject({ text: 'FY2024 (merged)', colSpan: 2 });
    expect(cell(table, 1, 1).text).toBe('1,344');
    // columns of 2032000 EMU = 320 px from x = 132 px, rows of 370840 EMU = 58.4 px from y = 315 px
    expect(cell(table, 1, 1).bbox[0]).toBeCloseTo(452, 0);
    expect(cell(table, 1, 1).bbox[2]).toBeCloseTo(772, 0);
    expect(table.bbox[1]).toBeCloseTo(315, 0);
  });

  it.skipIf(!legacyAvailable)('reads the legacy .ppt through LibreOffice', async () => {
    const doc = await legacyDoc(2);
    expect(doc.format).toBe('ppt');
    expect(doc.pages).toHaveLength(2);
    const bs = blocks(doc);
    expect(bs.filter((b) => b.type === 'Title').map((b) => b.text)).toEqual(['Strategy 2025', 'Financials']);
    expect(cell(bs.find((b) => b.type === 'Table')!.table!, 2, 2).text).toBe('+1pt');
  });
});

describe('HTML and text', () => {
  it('reads HTML headings, paragraphs, lists and a spanning table, without scripts or styles', async () => {
    const doc = await read(DOC_FIXTURES.html);
    expect(doc.format).toBe('html');
    const bs = blocks(doc);
    expect(bs.filter((b) => b.type === 'Title').map((b) => [b.text, b.level])).toEqual([
      ['Market Update', 1],
      ['Details', 2],
    ]);
    const texts = bs.filter((b) => b.type === 'Text').map((b) => b.text);
    expect(texts).toContain('Prices rose sharply in March & April.');
    expect(texts).toContain('• Copper up 5%');
    const all = doc.pages.flatMap((p) => p.lines.map((l) => l.text)).join('\n');
    expect(all).not.toMatch(/script text|never shown|color: red|Ignored title/);
    expect(all).toContain('市场总体平稳。');
    const t = bs.find((b) => b.type === 'Table')!.table!;
    expect(cell(t, 0, 1)).toMatchObject({ text: 'Change', colSpan: 2 });
    expect(cell(t, 1, 0)).toMatchObject({ text: 'Copper', rowSpan: 2 });
    expect(cell(t, 2, 1).text).toBe('April');
  });

  it('reads UTF-8 text as paragraphs split at blank lines', async () => {
    const doc = await read(DOC_FIXTURES.txt);
    expect(doc.format).toBe('txt');
    expect(blocks(doc).map((b) => b.text)).toEqual(['Meeting notes', 'The budget was approved. Next review in June.', '预算已批准。']);
    expect(doc.pages[0]!.lines.map((l) => l.text)).toEqual(['Meeting notes', 'The budget was approved.', 'Next review in June.', '预算已批准。']);
  });

  it('falls back to GB18030 for text that is not UTF-8', async () => {
    const doc = await read(DOC_FIXTURES.gbkTxt);
    expect(blocks(doc).map((b) => b.text)).toEqual(['会议纪要', '预算已批准。']);
  });
});

describe('refused containers', () => {
  it('refuses a zip bomb disguised as DOCX without inflating it', async () => {
    const before = process.memoryUsage().rss;
    await expect(read(DOC_FIXTURES.zipBombDocx)).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
      message: expect.stringMatching(/decompression bomb.*word\/document\.xml/),
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(60 * 1024 * 1024);
  });

  it('says what to install when LibreOffice is missing', async () => {
    const saved = process.env.DOCAI_SOFFICE;
    process.env.DOCAI_SOFFICE = 'none';
    try {
      await expect(read(DOC_FIXTURES.doc)).rejects.toMatchObject({
        code: 'INVALID_DOCUMENT',
        message: 'legacy .doc files need LibreOffice, which is not installed on this machine (install it with: apt-get install -y libreoffice-nogui)',
      });
    } finally {
      if (saved === undefined) delete process.env.DOCAI_SOFFICE;
      else process.env.DOCAI_SOFFICE = saved;
    }
  });
});
