import { describe, expect, it } from 'vitest';
import { runExtraction } from '../../../engine/extract/run-extraction.js';
import type { TemplatePageItem } from '../../../engine/core/results.js';
import { fixture } from './fixture-docs.js';

describe('identifier repair inside bl-extract', () => {
  it('repairs a credit code whose 0 the reader took for O, using the check character', async () => {
    const { doc, truth } = fixture('extract-licence-portrait');
    const code = truth['统一社会信用代码']!;
    const at = code.indexOf('0');
    expect(at).toBeGreaterThan(0);
    const misread = code.slice(0, at) + 'O' + code.slice(at + 1);
    for (const line of doc.pages[0]!.lines) {
      if (line.text === code) {
        line.text = misread;
        for (const r of line.runs) r.text = misread;
      }
    }
    const [item] = (await runExtraction([{ fileName: 'l.png', doc }], { mode: 'bl-extract', jsonSchema: null, prompt: '' })) as TemplatePageItem[];
    expect(item!.extract_data[0]!.extracted_fields['统一社会信用代码']).toBe(code);
  });
  it('repairs an 8 read as B in an organisation code', async () => {
    const { doc, truth } = fixture('extract-org-code');
    const code = truth['组织机构代码']!;
    const misread = code.replace(/8/, 'B');
    const changed = misread !== code;
    for (const line of doc.pages[0]!.lines) if (line.text === code) line.text = changed ? misread : code.replace(/0/, 'O');
    const [item] = (await runExtraction([{ fileName: 'c.png', doc }], { mode: 'occ-extract', jsonSchema: null, prompt: '' })) as TemplatePageItem[];
    expect(item!.extract_data[0]!.extracted_fields['组织机构代码']).toBe(code);
  });
});
