import { describe, expect, it } from 'vitest';
import { xyCutOrder } from '../../../../engine/vision/ocr/line-reading-order.js';
import { tidyLineText } from '../../../../engine/vision/ocr/line-text.js';
import { insertWordSpaces } from '../../../../engine/vision/ocr/word-gaps.js';

describe('tidyLineText', () => {
  it('applies NFKC and drops spaces inside Chinese but keeps English word spaces', () => {
    expect(tidyLineText('营业 执照 （副本）')).toBe('营业执照(副本)');
    expect(tidyLineText('使用“美术学” ，而不')).toBe('使用“美术学”,而不');
    expect(tidyLineText('Total  Amount： 12')).toBe('Total Amount: 12');
    expect(tidyLineText('ＡＢＣ１２３')).toBe('ABC123');
  });
});

describe('insertWordSpaces', () => {
  // 12 columns of ink per letter, 4 between letters, 16 for the word gap.
  function columns(pattern: string): Uint8Array {
    const out: number[] = [];
    for (const c of pattern) {
      if (c === 'x') out.push(...new Array(12).fill(0));
      else if (c === '.') out.push(...new Array(4).fill(1));
      else out.push(...new Array(16).fill(1));
    }
    return Uint8Array.from(out);
  }

  it('puts a space in a wide gap between letters and none in letter gaps', () => {
    const blank = columns('x.x.x_x.x');
    const w = blank.length;
    const centres = [6, 22, 38, 66, 82].map((c) => c / w);
    expect(insertWordSpaces('abcde', centres, [0, 0, 0, 0, 0], blank, 40)).toBe('abc de');
  });

  it('adds no pixel-gap spaces to a line the recogniser spaced itself (small print opens wide letter gaps)', () => {
    // "ab cde": the recogniser wrote the space; a wide gap also lies between c and d.
    const blank = columns('x.x_x_x.x');
    const w = blank.length;
    const centres = [6, 22, 36, 50, 78, 94].map((c) => c / w);
    expect(insertWordSpaces('ab cde', centres, [0, 0, 0, 0, 0, 0], blank, 40)).toBe('ab cde');
    // The same gaps without the recogniser's space: both become word breaks.
    const unspaced = [6, 22, 50, 78, 94].map((c) => c / w);
    expect(insertWordSpaces('abcde', unspaced, [0, 0, 0, 0, 0], blank, 40)).toBe('ab c de');
  });

  it('keeps digits together and trusts the recogniser for spaces between numbers', () => {
    const blank = columns('x.x_x.x');
    const w = blank.length;
    const centres = [6, 22, 50, 66].map((c) => c / w);
    expect(insertWordSpaces('1234', centres, [0, 0, 0, 0], blank, 40)).toBe('1234');
    expect(insertWordSpaces('ab12', centres, [0, 0.3, 0, 0], blank, 40)).toBe('ab 12');
  });
});

describe('xyCutOrder', () => {
  it('reads a heading, then the left column, then the right column', () => {
    const h = 20;
    const boxes = [
      { x1: 500, y1: 100, x2: 900, y2: 100 + h }, // right column line 1
      { x1: 100, y1: 40, x2: 900, y2: 40 + h }, // heading across both columns
      { x1: 100, y1: 100, x2: 450, y2: 100 + h }, // left line 1
      { x1: 100, y1: 130, x2: 450, y2: 130 + h }, // left line 2
      { x1: 500, y1: 130, x2: 900, y2: 130 + h }, // right line 2
    ];
    expect(xyCutOrder(boxes)).toEqual([1, 2, 3, 0, 4]);
  });

  it('cuts a wide gutter before narrow row gaps (a table grid comes out column by column)', () => {
    const boxes = [
      { x1: 300, y1: 10, x2: 380, y2: 30 },
      { x1: 10, y1: 10, x2: 90, y2: 30 },
      { x1: 10, y1: 50, x2: 90, y2: 70 },
      { x1: 300, y1: 50, x2: 380, y2: 70 },
    ];
    // Rows are 20 px apart and columns 210 px: the column gutter is cut first, as in a two-column page.
    expect(xyCutOrder(boxes)).toEqual([1, 2, 0, 3]);
  });
});
