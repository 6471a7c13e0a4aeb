import { describe, expect, it } from 'vitest';
import { restoreCjkPunctuation } from '../../../../engine/vision/layout/cjk-punctuation.js';

describe('restoreCjkPunctuation', () => {
  it('puts back the full-width marks NFKC took out of Chinese text', () => {
    expect(restoreCjkPunctuation('四面土坡都是看台。手动探照灯(一位老乡负责的大灯)一打,高音喇叭响起来:“喂,老乡们!”')).toBe(
      '四面土坡都是看台。手动探照灯（一位老乡负责的大灯）一打，高音喇叭响起来：“喂，老乡们！”',
    );
  });

  it('keeps numbers, times and Latin tokens inside Chinese text as they are', () => {
    expect(restoreCjkPunctuation('截至8:45,共投放1,200万元 (601128.SH),比上年增加')).toBe('截至8:45，共投放1,200万元（601128.SH），比上年增加');
  });

  it('leaves English text alone', () => {
    const en = 'The regulation (43 CFR 2711.32) provides: all other use, absent authority, requires a permit!';
    expect(restoreCjkPunctuation(en)).toBe(en);
  });
});
