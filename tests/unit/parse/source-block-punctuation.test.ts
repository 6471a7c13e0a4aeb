import { describe, expect, it } from 'vitest';
import type { DocumentPages } from '../../../engine/core/page.js';
import { parsePages } from '../../../engine/parse/parse-pages.js';

describe('parsePages on stated blocks (DOCX, HTML)', () => {
  it('gives Chinese text its printed full-width punctuation back and leaves English as it is', () => {
    const doc: DocumentPages = {
      format: 'docx',
      pages: [
        {
          pageNumber: 1,
          width: 1190,
          height: 1684,
          lines: [],
          rules: [],
          images: [],
          ocr: false,
          rotation: 0,
          sourceBlocks: [
            { type: 'Title', text: '第一章:概述', bbox: [100, 100, 600, 140], level: 1 },
            { type: 'Text', text: '本报告(未经审计)说明了公司的经营情况,请参阅附表。', bbox: [100, 160, 1000, 200] },
            { type: 'Text', text: 'Revenue grew (in millions): 1,200, up 12%.', bbox: [100, 220, 1000, 260] },
          ],
        },
      ],
    };
    expect(parsePages(doc).regions.map((r) => r.text)).toEqual(['第一章：概述', '本报告（未经审计）说明了公司的经营情况，请参阅附表。', 'Revenue grew (in millions): 1,200, up 12%.']);
  });
});
