import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { buildParseResult } from '../../../engine/parse/build-result.js';
import type { ParseNode } from '../../../engine/core/results.js';
import { WRAPPED_AFTER, WRAPPED_BEFORE, WRAPPED_HEADING } from '../../fixtures/make-layout-rules.js';

const file = join(import.meta.dirname, '../../fixtures/generated/layout-wrapped-heading.pdf');

describe('a heading in the body type wrapping onto a short second line (born-digital page)', () => {
  let nodes: ParseNode[];
  beforeAll(async () => {
    const doc = await readDocument(file, { fileName: 'layout-wrapped-heading.pdf', ocr: 'never' });
    nodes = buildParseResult(doc, 'layout-wrapped-heading.pdf', 'pro').nodes ?? [];
  });

  it('gives the paragraph, the two-line heading as one Title with its exact text, then the paragraph it heads', () => {
    expect(nodes.map((n) => [n.type, n.text])).toEqual([
      ['Text', WRAPPED_BEFORE.join(' ')],
      ['Title', WRAPPED_HEADING.join(' ')],
      ['Text', WRAPPED_AFTER.join(' ')],
    ]);
  });
});
