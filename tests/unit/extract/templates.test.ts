import { describe, expect, it } from 'vitest';
import { runExtraction } from '../../../engine/extract/run-extraction.js';
import type { EmrItem, TemplatePageItem } from '../../../engine/core/results.js';
import { fixture } from './fixture-docs.js';

const BL = ['名称', '统一社会信用代码', '注册资本', '类型', '成立日期', '法定代表人', '营业期限', '经营范围', '住所'];

async function bl(name: string): Promise<Record<string, string>> {
  const { doc } = fixture(name);
  const [item] = (await runExtraction([{ fileName: `${name}.png`, doc }], { mode: 'bl-extract', jsonSchema: null, prompt: '' })) as TemplatePageItem[];
  expect(item!.page_number).toBe(1);
  expect(item!.extract_data[0]!.key_index).toEqual([...BL, '图片类型']);
  return item!.extract_data[0]!.extracted_fields;
}

describe('bl-extract', () => {
  it('reads a portrait licence with spaced labels and wrapped business scope', async () => {
    const { truth } = fixture('extract-licence-portrait');
    const f = await bl('extract-licence-portrait');
    expect(f['图片类型']).toBe('营业执照');
    for (const k of BL) expect(f[k], k).toBe(truth[k]);
  });
  it('reads a landscape licence with two columns', async () => {
    const { truth } = fixture('extract-licence-landscape');
    const f = await bl('extract-licence-landscape');
    for (const k of BL) expect(f[k], k).toBe(truth[k]);
  });
  it('reads a pre-2015 licence (注册号, no credit code)', async () => {
    const { truth } = fixture('extract-licence-old');
    const f = await bl('extract-licence-old');
    expect(f['统一社会信用代码']).toBe('');
    for (const k of BL.filter((x) => x !== '统一社会信用代码')) expect(f[k], k).toBe(truth[k]);
  });
  it('says 其他 for a page that is not a licence', async () => {
    const f = await bl('extract-receipt');
    expect(f['图片类型']).toBe('其他');
    expect(f['名称']).toBe('');
  });
});

describe('occ-extract', () => {
  it('reads an organisation code certificate', async () => {
    const { doc, truth } = fixture('extract-org-code');
    const [item] = (await runExtraction([{ fileName: 'c.png', doc }], { mode: 'occ-extract', jsonSchema: null, prompt: '' })) as TemplatePageItem[];
    const f = item!.extract_data[0]!.extracted_fields;
    expect(f['图片类型']).toBe('组织机构代码证');
    for (const k of Object.keys(truth)) expect(f[k], k).toBe(truth[k]);
  });
  it('calls a business licence a business licence', async () => {
    const { doc } = fixture('extract-licence-portrait');
    const [item] = (await runExtraction([{ fileName: 'l.png', doc }], { mode: 'occ-extract', jsonSchema: null, prompt: '' })) as TemplatePageItem[];
    expect(item!.extract_data[0]!.extracted_fields['图片类型']).toBe('营业执照');
  });
});

describe('emr-extract', () => {
  it('merges two pages into one item, several hits per field, stay length computed', async () => {
    const { doc, truth } = fixture('extract-emr');
    const res = (await runExtraction([{ fileName: 'r.png', doc }], { mode: 'emr-extract', jsonSchema: {}, prompt: '' })) as EmrItem[];
    expect(res).toHaveLength(1);
    const item = res[0]!;
    for (const k of ['患者姓名', '患者性别', '年龄', '入院时间', '出院时间', '现病史', '既往史']) expect(item[k]![0]?.value, k).toBe(truth[k]);
    // kept as printed, with its full stop
    expect(item['主诉']![0]?.value).toBe(`${truth['主诉']}。`);
    expect(item['入院时间']!.map((h) => h.value)).toEqual(['2023-03-01 10:20', '2023-03-01']);
    expect(item['住院时长']).toEqual([{ value: '8天' }]);
  });
});
