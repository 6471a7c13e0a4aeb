import { describe, expect, it } from 'vitest';
import { runExtraction } from '../../../engine/extract/run-extraction.js';
import type { ExtractItem } from '../../../engine/core/results.js';
import type { DocumentPages, TextLine } from '../../../engine/core/page.js';

/** A scanned-form page built from positioned lines (x, y of the top-left corner; width from the text length). */
function page(lines: [string, number, number][]): DocumentPages {
  const h = 14;
  const text: TextLine[] = lines.map(([t, x, y]) => {
    const bbox: [number, number, number, number] = [x, y, x + Math.round(t.length * 7), y + h];
    return { text: t, bbox, runs: [{ text: t, bbox, fontSize: h }], fontSize: h, bold: false, source: 'ocr', confidence: 0.99 };
  });
  return { format: 'png', pages: [{ pageNumber: 1, width: 760, height: 1000, lines: text, rules: [], images: [], ocr: true, rotation: 0 }] };
}

async function open(doc: DocumentPages): Promise<Record<string, string>> {
  const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: null, prompt: '' })) as ExtractItem[];
  return item!.extracted_fields;
}

describe('open extraction geometry', () => {
  it('reads a value across a wide gap after its label, stops at a far gap on its row and does not follow it onto a line that starts further right on its row and does not follow it onto a line that starts further right', async () => {
    const fields = await open(
      page([
        ['TO:', 40, 100],
        ['Mary Jones', 190, 100],
        ['MARCH 3', 430, 100],
        ['FROM:', 40, 130],
        ['Peter Smith', 190, 130],
        ['APRIL 9', 430, 118],
        ['SUBJECT:', 40, 190],
        ['Quarterly sales report', 190, 190],
      ]),
    );
    expect(fields['TO']).toBe('Mary Jones');
    expect(fields['FROM']).toBe('Peter Smith');
    expect(fields['SUBJECT']).toBe('Quarterly sales report');
  });
  it('does not read a paragraph under a row of blank "Key:" headers as their values, nor a grid of options as pairs', async () => {
    const fields = await open(
      page([
        ['Date:', 70, 80],
        ['10/30/98', 170, 80],
        ['Concept:', 70, 120],
        ['Execution:', 220, 120],
        ['Media:', 390, 120],
        ['GOALS', 90, 160],
        ['Why are we spending money on this campaign?', 70, 185],
        ['Brand Building', 110, 230],
        ['Retention', 290, 230],
        ['Acquisition', 430, 230],
        ['Loyalty', 560, 230],
        ['Price Blocking', 110, 250],
        ['Cross-Sell', 290, 250],
        ['Awareness', 430, 250],
        ['Lead Generation', 560, 250],
        ['Image Change', 110, 270],
        ['Direct Sale', 290, 270],
        ['Trial', 430, 270],
        ['Other', 560, 270],
      ]),
    );
    expect(fields['Date']).toBe('10/30/98');
    expect(Object.keys(fields).filter((k) => /Execution|Media|Brand Building|Acquisition|Price Blocking|Image Change/.test(k))).toEqual([]);
  });
  it('pairs every value of a table with its upper-case column heading, a heading split over two lines joined', async () => {
    const [item] = (await runExtraction(
      [
        {
          fileName: 'f.png',
          doc: page([
            ['UNITS', 330, 80],
            ['CUSTOMER NAME', 140, 97],
            ['SOLD', 330, 97],
            ['REGION', 480, 97],
            ['Acme Hardware', 70, 120],
            ['240', 350, 120],
            ['North', 480, 120],
            ['Bell Foods', 70, 140],
            ['75', 357, 140],
            ['South', 480, 140],
            ['Corner Shop', 70, 160],
            ['12', 357, 160],
            ['East', 480, 160],
          ]),
        },
      ],
      { mode: 'docai-extract', jsonSchema: null, prompt: '' },
    )) as ExtractItem[];
    const pairs = item!.key_index.map((k) => [k.replace(/_\d+$/, ''), item!.extracted_fields[k]]);
    expect(pairs).toEqual([
      ['CUSTOMER NAME', 'Acme Hardware'],
      ['UNITS SOLD', '240'],
      ['REGION', 'North'],
      ['CUSTOMER NAME', 'Bell Foods'],
      ['UNITS SOLD', '75'],
      ['REGION', 'South'],
      ['CUSTOMER NAME', 'Corner Shop'],
      ['UNITS SOLD', '12'],
      ['REGION', 'East'],
    ]);
  });
  it('reads upper-case label and value rows as pairs, not as a table under the first row', async () => {
    const fields = await open(
      page([
        ['PRODUCT LINE', 140, 100],
        ['GARDEN TOOLS', 380, 100],
        ['SALES CHANNEL', 140, 130],
        ['MAIL ORDER', 380, 130],
        ['START DATE', 140, 160],
        ['10/4/99', 380, 160],
      ]),
    );
    expect(fields).toEqual({ 'PRODUCT LINE': 'GARDEN TOOLS', 'SALES CHANNEL': 'MAIL ORDER', 'START DATE': '10/4/99' });
  });
  it('cuts a value read together with the next label, and pairs a "# KEY" number label with the value after it', async () => {
    const fields = await open(
      page([
        ['BRANCH NAME:', 50, 100],
        ['Lakeside East BRANCH NAME:', 190, 100],
        ['# STAFF', 470, 100],
        ['12', 580, 100],
      ]),
    );
    expect(fields).toEqual({ 'BRANCH NAME': 'Lakeside East', '# STAFF': '12' });
  });
  it('follows a value whose end slipped down a little on a skewed scan, and drops bracketed instructions and blank lines', async () => {
    const fields = await open(
      page([
        ['ADDRESS:12 Harbour Road', 85, 300],
        ['Portland, OR 97201', 260, 314],
        ['Reviewed by', 85, 360],
        ['(Signature)', 260, 360],
        ['REF:', 85, 400],
        ['____', 160, 400],
      ]),
    );
    expect(fields).toEqual({ ADDRESS: '12 Harbour Road Portland, OR 97201' });
  });
  it('stops a value below its label at a wider step down (a new paragraph)', async () => {
    const fields = await open(
      page([
        ['Outcome:', 85, 100],
        ['Stock moved to the new shelf', 85, 116],
        ['within two weeks of delivery', 85, 132],
        ['Further shops will follow next spring.', 85, 158],
      ]),
    );
    expect(fields).toEqual({ Outcome: 'Stock moved to the new shelf within two weeks of delivery' });
  });
  it('reads the lone piece far right of a "Key:" as its value and drops dot leaders after a value', async () => {
    const fields = await open(
      page([
        ['Client Matter No.:', 110, 100],
        ['KX 45048', 480, 100],
        ['TITLE:', 110, 140],
        ['Store Manager .. .', 180, 140],
      ]),
    );
    expect(fields).toEqual({ 'Client Matter No.': 'KX 45048', TITLE: 'Store Manager' });
  });
  it('reads nothing under a blank "Key:" that has another label right beside it', async () => {
    const fields = await open(
      page([
        ['Invoice Date:', 70, 100],
        ['12/01/2024', 200, 100],
        ['Approved By:', 70, 130],
        ['Checked By:', 260, 130],
        ['SUMMARY', 90, 152],
      ]),
    );
    expect(fields).toEqual({ 'Invoice Date': '12/01/2024' });
  });
});
