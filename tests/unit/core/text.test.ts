import { describe, expect, it } from 'vitest';
import { cjkRatio, normalizeText } from '../../../engine/core/text.js';

describe('normalizeText', () => {
  it('folds full-width forms with NFKC and CJK Radicals Supplement code points to their ideographs', () => {
    expect(normalizeText('注册资本：人\u2EA0币壹佰万元')).toBe('注册资本:人民币壹佰万元');
    expect(normalizeText('营业收入增\u2ED3１２％')).toBe('营业收入增长12%');
  });
  it('drops control characters and collapses runs of spaces and tabs', () => {
    expect(normalizeText('Total\u0007  revenue\t\t4,812.6')).toBe('Total revenue 4,812.6');
  });
  it('measures the share of CJK characters', () => {
    expect(cjkRatio('门诊ab')).toBe(0.5);
    expect(cjkRatio('   ')).toBe(0);
  });
});
