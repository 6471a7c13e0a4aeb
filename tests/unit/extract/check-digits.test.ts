import { describe, expect, it } from 'vitest';
import { isValidCreditCode, isValidOrgCode, repairCreditCode, repairOrgCode } from '../../../engine/extract/check-digits.js';

// Published examples of valid identifiers (computed by hand from the standards' weight tables).
describe('identifier check digits', () => {
  it('accepts valid and rejects altered credit codes', () => {
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode('91350100M000100Y44')).toBe(false);
  });
  it('repairs one OCR confusion in a credit code', () => {
    expect(repairCreditCode('9135O100M000100Y43')).toBe('91350100M000100Y43');
    expect(repairCreditCode('91350I00M000100Y43')).toBe('91350100M000100Y43');
    expect(repairCreditCode('913501OOMOOO1OOY4B')).toBeNull();
  });
  it('checks and repairs organisation codes', () => {
    expect(isValidOrgCode('D2143569-X')).toBe(true);
    expect(isValidOrgCode('D2143569-1')).toBe(false);
    expect(repairOrgCode('D2143S69-X')).toBe('D2143569-X');
    expect(repairOrgCode('D2143569X')).toBe('D2143569-X');
  });
});
