import { describe, expect, it } from 'vitest';
import { assessTextLayer } from '../../../engine/formats/pdf/text-layer-quality.js';

describe('assessTextLayer', () => {
  it('trusts ordinary English and Chinese text', () => {
    expect(assessTextLayer('Net revenue increased 12% to $1,344 million in fiscal 2024, driven by services.').usable).toBe(true);
    expect(assessTextLayer('本公司2024年度营业收入为13.44亿元，同比增长12%。').usable).toBe(true);
  });

  it('rejects private-use and replacement characters', () => {
    const pua = String.fromCodePoint(...Array.from({ length: 40 }, (_, i) => 0xe020 + i));
    expect(assessTextLayer(pua)).toMatchObject({ chars: 40, readable: 0, usable: false });
    expect(assessTextLayer('\ufffd\ufffd\ufffd ab \ufffd\ufffd\ufffd\ufffd').usable).toBe(false);
  });

  it('rejects glyph ids read as ASCII (no words, no vowels)', () => {
    const junk = 'Nqtr 3Gk7 Zx#Q pPk9 hJ2w XkR7 mN0q Tpz4 Qwxr 8Kkd Lmnb';
    expect(assessTextLayer(junk).usable).toBe(false);
  });

  it('does not count a page number alone as a text layer', () => {
    expect(assessTextLayer('12').usable).toBe(false);
  });
});
