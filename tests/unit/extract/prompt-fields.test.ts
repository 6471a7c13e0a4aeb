import { describe, expect, it } from 'vitest';
import { promptFields } from '../../../engine/extract/prompt-fields.js';
import { schemaFields } from '../../../engine/extract/schema-fields.js';
import { DocError } from '../../../engine/core/errors.js';

describe('promptFields', () => {
  it.each([
    ['提取发票号码、开票日期和金额', ['发票号码', '开票日期', '金额']],
    ['请帮我抽取合同的甲方和乙方', ['甲方', '乙方']],
    ['extract the invoice number and total', ['invoice number', 'total']],
    ['Please get the buyer name, the seller name and the tax amount from this invoice.', ['buyer name', 'seller name', 'tax amount']],
    ['识别图片中的“姓名”和“身份证号”', ['姓名', '身份证号']],
    ['需要以下字段：\n- 患者姓名\n- 住院号\n- 出院日期', ['患者姓名', '住院号', '出院日期']],
  ])('%s', (prompt, fields) => {
    expect(promptFields(prompt)).toEqual(fields);
  });
});

describe('schemaFields', () => {
  it('takes the properties of an object schema with their types and hints', () => {
    expect(schemaFields({ type: 'object', properties: { 金额: { type: 'number', description: '价税合计' }, 日期: { type: 'string' } } })).toEqual([
      { name: '金额', type: 'number', hints: ['价税合计'] },
      { name: '日期', type: 'string', hints: [] },
    ]);
  });
  it('treats absent, empty and property-less schemas as invalid (null)', () => {
    expect(schemaFields(null)).toBeNull();
    expect(schemaFields({})).toBeNull();
    expect(schemaFields({ type: 'object', properties: {} })).toBeNull();
    expect(schemaFields({ type: 'array', properties: { a: {} } })).toBeNull();
    expect(schemaFields('{"type":"object","properties":{"a":{"type":"string"}}}')).toEqual([{ name: 'a', type: 'string', hints: [] }]);
  });
  it('rejects schema text that is not JSON', () => {
    expect(() => schemaFields('{oops')).toThrow(DocError);
  });
});
