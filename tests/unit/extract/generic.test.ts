import { describe, expect, it } from 'vitest';
import { runExtraction } from '../../../engine/extract/run-extraction.js';
import type { ExtractItem, FlashItem } from '../../../engine/core/results.js';
import { DocError } from '../../../engine/core/errors.js';
import { fixture } from './fixture-docs.js';

const schema = (...names: string[]): unknown => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) });

describe('docai-extract open', () => {
  it('finds every key-value pair of a Chinese form in reading order, checkboxes resolved', async () => {
    const { doc, truth } = fixture('extract-form-zh');
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: {}, prompt: '' })) as ExtractItem[];
    expect(item!.page_count).toBe(1);
    expect(item!.key_index).toEqual(['姓名', '性别', '年龄', '联系电话', '地址', '发票号码', '开票日期', '价税合计', '备注']);
    for (const k of item!.key_index) expect(item!.extracted_fields[k], k).toBe(truth[k]);
  });
  it('finds the pairs of an English invoice: value beside, below, and a checked box', async () => {
    const { doc, truth } = fixture('extract-form-en');
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: null, prompt: '' })) as ExtractItem[];
    expect(item!.key_index).toEqual(['Invoice No.', 'Date', 'Bill To', 'Total', 'Status']);
    for (const k of item!.key_index) expect(item!.extracted_fields[k], k).toBe(truth[k]);
  });
});

describe('docai-extract closed', () => {
  it('returns only the schema fields, matched through synonyms; missing fields are empty', async () => {
    const { doc, truth } = fixture('extract-form-zh');
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: schema('客户姓名', '手机号', '金额', '开户银行'), prompt: 'ignored' })) as ExtractItem[];
    expect(item!.key_index).toEqual(['客户姓名', '手机号', '金额', '开户银行']);
    expect(item!.extracted_fields).toEqual({ 客户姓名: truth['姓名'], 手机号: truth['联系电话'], 金额: truth['价税合计'], 开户银行: '' });
  });
  it('normalises numbers only where the schema types them', async () => {
    const { doc } = fixture('extract-form-en');
    const s = { type: 'object', properties: { total: { type: 'number' }, 'invoice number': { type: 'string' }, date: { type: 'string' } } };
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: s, prompt: '' })) as ExtractItem[];
    expect(item!.extracted_fields).toEqual({ total: '1250.00', 'invoice number': 'INV-2024-0042', date: 'March 5, 2024' });
  });
});

describe('docai-extract prompt', () => {
  it('reads the fields a Chinese prompt asks for', async () => {
    const { doc, truth } = fixture('extract-form-zh');
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: { type: 'object', properties: {} }, prompt: '提取发票号码、开票日期和金额' })) as ExtractItem[];
    expect(item!.key_index).toEqual(['发票号码', '开票日期', '金额']);
    expect(item!.extracted_fields).toEqual({ 发票号码: truth['发票号码'], 开票日期: truth['开票日期'], 金额: truth['价税合计'] });
  });
  it('reads the fields an English prompt asks for', async () => {
    const { doc, truth } = fixture('extract-form-en');
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract', jsonSchema: null, prompt: 'Please extract the invoice number and total from this document.' })) as ExtractItem[];
    expect(item!.extracted_fields).toEqual({ 'invoice number': truth['Invoice No.'], total: truth['Total'] });
  });
});

describe('docai-extract-flash', () => {
  it('gives each hit its box, raw text, page and page size', async () => {
    const { doc } = fixture('extract-form-zh');
    const [item] = (await runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract-flash', jsonSchema: schema('联系电话', '地址', '传真'), prompt: '' })) as FlashItem[];
    expect(item).not.toHaveProperty('object');
    const phone = item!.extracted_fields['联系电话']!;
    expect(phone).toHaveLength(1);
    expect(phone[0]!.value).toBe('联系电话:13812345678');
    expect(phone[0]!.category).toBe('Text');
    expect(phone[0]!.source_page).toBe(1);
    expect([phone[0]!.layout_width, phone[0]!.layout_height]).toEqual([1400, 1000]);
    // drawn at x=100, y=250 (28 px type): the box spans label and number
    const [x1, y1, x2, y2] = phone[0]!.bbox;
    expect(Math.abs(x1 - 100)).toBeLessThanOrEqual(3);
    expect(Math.abs(y1 - 250)).toBeLessThanOrEqual(5);
    expect(x2).toBeGreaterThan(400);
    expect(x2).toBeLessThan(520);
    expect(y2 - y1).toBeLessThan(40);
    expect(phone[0]!.bbox.every((n) => Number.isInteger(n))).toBe(true);
    const addr = item!.extracted_fields['地址']!;
    expect(addr[0]!.value).toBe('地址 上海市浦东新区张江路88号');
    expect(addr[0]!.bbox[0]).toBeLessThanOrEqual(102);
    expect(addr[0]!.bbox[2]).toBeGreaterThan(600);
    expect(item!.extracted_fields['传真']).toEqual([]);
  });
  it('rejects an empty schema', async () => {
    const { doc } = fixture('extract-form-zh');
    await expect(runExtraction([{ fileName: 'f.png', doc }], { mode: 'docai-extract-flash', jsonSchema: {}, prompt: 'x' })).rejects.toBeInstanceOf(DocError);
  });
});
