import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { buildParseResult } from '../../../engine/parse/build-result.js';
import type { ParseNode } from '../../../engine/core/results.js';
import { INDENT_EN, INDENT_ZH } from '../../fixtures/make-layout-rules.js';

const file = join(import.meta.dirname, '../../fixtures/generated/layout-indent-paragraphs.pdf');

describe('paragraphs told apart only by a first-line indent (born-digital page, no extra gap)', () => {
  let nodes: ParseNode[];
  beforeAll(async () => {
    const doc = await readDocument(file, { fileName: 'layout-indent-paragraphs.pdf', ocr: 'never' });
    nodes = buildParseResult(doc, 'layout-indent-paragraphs.pdf', 'pro').nodes ?? [];
  });

  it('gives two English Text nodes with their exact texts, the second after a full justified line ending in a stop', () => {
    const page1 = nodes.filter((n) => n.composing_blocks[0]?.page_number === 1);
    expect(page1.map((n) => [n.type, n.text])).toEqual(INDENT_EN.map((p) => ['Text', p.join(' ')]));
  });

  it('gives two Chinese Text nodes with their exact texts, though every line before the indent is full width (printed punctuation kept)', () => {
    const page2 = nodes.filter((n) => n.composing_blocks[0]?.page_number === 2);
    expect(page2.map((n) => [n.type, n.text])).toEqual(INDENT_ZH.map((p) => ['Text', p.join('')]));
  });
});
