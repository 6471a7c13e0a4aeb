import { describe, expect, it } from 'vitest';
import { runExtraction } from '../../../engine/extract/run-extraction.js';
import type { ExtractItem, FlashItem } from '../../../engine/core/results.js';
import type { BBox } from '../../../engine/core/geometry.js';
import type { DocumentPages, TableCell } from '../../../engine/core/page.js';

/** A registration form as a DOCX reader states it: a 3 x 4 table of label and value cells. */
function tableForm(): DocumentPages {
  const texts = [
    ['申请人', '赵雨桐', '性别', '☐男 ☑女'],
    ['身份证号', '110105199003071234', '联系电话', '15900001111'],
    ['Email', 'yutong@example.org', '备注', '无'],
  ];
  const cells: TableCell[] = [];
  texts.forEach((row, r) =>
    row.forEach((text, c) => {
      const bbox: BBox = [100 + c * 250, 200 + r * 60, 350 + c * 250, 260 + r * 60];
      cells.push({ row: r, col: c, rowSpan: 1, colSpan: 1, text, bbox });
    }),
  );
  return {
    format: 'docx',
    pages: [
      {
        pageNumber: 1,
        width: 1190,
        height: 1684,
        lines: [{ text: '入会申请表', bbox: [480, 100, 700, 140], runs: [], fontSize: 36, bold: true, source: 'text', confidence: 1 }],
        rules: [],
        images: [],
        sourceBlocks: [
          { type: 'Title', text: '入会申请表', bbox: [480, 100, 700, 140], level: 1 },
          { type: 'Table', text: '', bbox: [100, 200, 1100, 380], table: { bbox: [100, 200, 1100, 380], rows: 3, cols: 4, cells } },
        ],
        ocr: false,
        rotation: 0,
      },
    ],
  };
}

describe('forms stated as tables', () => {
  it('pairs label cells with the value cells beside them (open), checkboxes resolved', async () => {
    const [item] = (await runExtraction([{ fileName: 'f.docx', doc: tableForm() }], { mode: 'docai-extract', jsonSchema: null, prompt: '' })) as ExtractItem[];
    expect(item!.key_index).toEqual(['申请人', '性别', '身份证号', '联系电话', 'Email', '备注']);
    expect(item!.extracted_fields).toEqual({ 申请人: '赵雨桐', 性别: '女', 身份证号: '110105199003071234', 联系电话: '15900001111', Email: 'yutong@example.org', 备注: '无' });
  });
  it('flash marks table hits as Table with the cell boxes', async () => {
    const schema = { type: 'object', properties: { 手机号: { type: 'string' }, 电子邮箱: { type: 'string' } } };
    const [item] = (await runExtraction([{ fileName: 'f.docx', doc: tableForm() }], { mode: 'docai-extract-flash', jsonSchema: schema, prompt: '' })) as FlashItem[];
    const phone = item!.extracted_fields['手机号']!;
    expect(phone).toHaveLength(1);
    expect(phone[0]).toMatchObject({ category: 'Table', source_page: 1, layout_width: 1190, layout_height: 1684 });
    expect(phone[0]!.bbox).toEqual([600, 260, 1100, 320]);
    expect(phone[0]!.value).toContain('15900001111');
    expect(item!.extracted_fields['电子邮箱']![0]!.bbox).toEqual([100, 320, 600, 380]);
  });
});
