import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { buildParseResult } from '../../../engine/parse/build-result.js';
import type { ParseNode } from '../../../engine/core/results.js';
import { BULLET_ITEMS, NUMBERED_INTRO, NUMBERED_ITEMS } from '../../fixtures/make-layout-rules.js';

const file = join(import.meta.dirname, '../../fixtures/generated/layout-numbered-items.pdf');

describe('numbered paragraphs and a bulleted list (born-digital page)', () => {
  let nodes: ParseNode[];
  beforeAll(async () => {
    const doc = await readDocument(file, { fileName: 'layout-numbered-items.pdf', ocr: 'never' });
    nodes = buildParseResult(doc, 'layout-numbered-items.pdf', 'pro').nodes ?? [];
  });

  it('gives each numbered item of several lines a Text node of its own, with its exact text', () => {
    const texts = nodes.map((n) => n.text);
    expect(texts[0]).toBe(NUMBERED_INTRO);
    expect(texts.slice(1, 4)).toEqual(NUMBERED_ITEMS.map((item) => item.join(' ')));
    expect(nodes.slice(0, 4).every((n) => n.type === 'Text')).toBe(true);
  });

  it('keeps one-line bulleted items together as one list node, one item per line', () => {
    const list = nodes.find((n) => n.text.startsWith('•'));
    expect(list?.type).toBe('Text');
    expect(list?.text).toBe(BULLET_ITEMS.join('\n'));
  });
});
