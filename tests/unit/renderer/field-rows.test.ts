import { describe, expect, it } from 'vitest';
import { fieldRowsOf, linkValuesToBlocks, templateOf } from '../../../renderer/features/extract/field-rows.js';
import { markdownOf } from '../../../renderer/features/viewer/to-markdown.js';
import type { ParseResult } from '../../../engine/core/results.js';

const block = (id: number, text: string, box: [number, number, number, number], page = 1) => ({
  block_id: id,
  text,
  type: 'Text' as const,
  system: 'PixelSpace' as const,
  page_number: page,
  layout_width: 1000,
  layout_height: 1400,
  composing_blocks: [{ system: 'PixelSpace' as const, coordinates: box, page_number: page, layout_width: 1000, layout_height: 1400 }],
});

describe('extraction results as form fields', () => {
  it('reads every mode into named fields, boxes kept for flash hits', () => {
    expect(fieldRowsOf('docai-extract', [{ page_count: 1, key_index: ['Company', 'Year'], extracted_fields: { Company: 'Northwind', Year: '2023' } }])).toEqual([
      { name: 'Company', values: [{ value: 'Northwind' }] },
      { name: 'Year', values: [{ value: '2023' }] },
    ]);
    const flash = fieldRowsOf('docai-extract-flash', [
      { page_count: 2, extracted_fields: { Revenue: [{ bbox: [10, 20, 110, 40], value: '4,812.6', category: 'Table', source_page: 2, layout_width: 1224, layout_height: 1584 }] } },
    ]);
    expect(flash[0]!.values[0]).toEqual({ value: '4,812.6', page: 2, bbox: [10, 20, 110, 40], layoutWidth: 1224, layoutHeight: 1584 });
    const bl = fieldRowsOf('bl-extract', [{ page_number: 1, extract_data: [{ key_index: ['名称', '图片类型'], extracted_fields: { 名称: '上海澄明仪器科技有限公司', 图片类型: '营业执照' } }] }]);
    expect(bl.map((r) => [r.name, r.values[0]!.value, r.values[0]!.page])).toEqual([
      ['名称', '上海澄明仪器科技有限公司', 1],
      ['图片类型', '营业执照', 1],
    ]);
    const emr = fieldRowsOf('emr-extract', [{ 患者姓名: [{ value: '王建国' }], 主诉: [{ value: '胸闷3年' }, { value: '加重1周' }] }]);
    expect(emr.find((r) => r.name === '主诉')!.values.map((v) => v.value)).toEqual(['胸闷3年', '加重1周']);
    // a failed file's entry adds no fields
    expect(fieldRowsOf('docai-extract', [{ file_name: 'x.pdf', status: 'FAILED', err_code: 'INVALID_DOCUMENT', err_message: 'damaged' }])).toEqual([]);
    expect([templateOf('bl-extract'), templateOf('occ-extract'), templateOf('emr-extract'), templateOf('docai-extract')]).toEqual(['licence', 'certificate', 'record', 'generic']);
  });

  it('links a box-less value to the smallest block containing it, ignoring spaces and width', () => {
    const locator: ParseResult = {
      file_name: 'l.pdf',
      blocks: [block(1, '名称 上海澄明仪器科技有限公司 类型 有限责任公司', [0, 0, 900, 400]), block(2, '上海澄明仪器 科技有限公司', [300, 100, 700, 140]), block(3, '法定代表人 陈立新', [100, 200, 400, 240])],
    };
    const rows = linkValuesToBlocks(
      [
        { name: '名称', values: [{ value: '上海澄明仪器科技有限公司' }] },
        { name: '法定代表人', values: [{ value: '陈立新' }] },
        { name: '住所', values: [{ value: '北京市' }] },
      ],
      locator,
    );
    expect(rows[0]!.values[0]!.bbox).toEqual([300, 100, 700, 140]);
    expect(rows[1]!.values[0]!.bbox).toEqual([100, 200, 400, 240]);
    expect(rows[2]!.values[0]!.bbox).toBeUndefined();
  });
});

describe('linking values that appear more than once', () => {
  it('prefers the copy beside the field label, and folds CJK radical look-alikes', () => {
    const locator: ParseResult = {
      file_name: 'l.pdf',
      blocks: [
        block(1, '成立日期', [100, 300, 180, 324]),
        block(2, '2019年06月18日', [300, 300, 460, 324]),
        block(3, '人民币伍佰万元整', [300, 250, 480, 274]),
        block(4, '2019年06月18日', [700, 900, 860, 924]),
      ],
    };
    const rows = linkValuesToBlocks(
      [
        { name: '成立日期', values: [{ value: '2019年06月18日' }] },
        { name: '注册资本', values: [{ value: '人⺠币伍佰万元整' }] },
      ],
      locator,
    );
    expect(rows[0]!.values[0]!.bbox).toEqual([300, 300, 460, 324]);
    expect(rows[1]!.values[0]!.bbox).toEqual([300, 250, 480, 274]);
  });
});

describe('markdown of a parse result', () => {
  it('keeps the engine markdown, else builds headings by tree depth and tables from cells', () => {
    expect(markdownOf({ file_name: 'a', markdown: '# Given\n' })).toBe('# Given\n');
    const node = (id: number, parent: number, type: 'Title' | 'Text' | 'Table', text: string, cells?: { row: number; col: number; text: string }[]) => ({
      id,
      parent_id: parent,
      type,
      text,
      relation: 'part_of' as const,
      path_info: { path: [], path_context: '' },
      composing_blocks: [],
      caption: '',
      note: '',
      vlm_understanding: null,
      cells: cells?.map((c) => ({ ...c, row_span: 1, col_span: 1, box: [0, 0, 1, 1] as [number, number, number, number], page_number: 1 })),
    });
    const md = markdownOf({
      file_name: 'r.pdf',
      nodes: [
        node(1, -1, 'Title', 'Annual Report'),
        node(2, 1, 'Title', 'Item 7'),
        node(3, 2, 'Text', 'Revenue grew.'),
        node(4, 2, 'Table', 'x', [
          { row: 0, col: 0, text: 'Item' },
          { row: 0, col: 1, text: '2023' },
          { row: 1, col: 0, text: 'Revenue' },
          { row: 1, col: 1, text: '4,812.6' },
        ]),
      ],
    });
    expect(md).toBe('# Annual Report\n\n## Item 7\n\nRevenue grew.\n\n| Item | 2023 |\n| --- | --- |\n| Revenue | 4,812.6 |\n');
  });
});
