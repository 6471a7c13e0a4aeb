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
});
