import { describe, it, expect, beforeAll } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { buildParseResult } from '../../../engine/parse/build-result.js';
import type { DocumentPages } from '../../../engine/core/page.js';
import type { ParseNode, ParseResult } from '../../../engine/core/results.js';

const dir = join(import.meta.dirname, '../../fixtures/generated');
const docs = new Map<string, DocumentPages>();

async function parse(name: string, mode: 'lite' | 'pro' | 'premium'): Promise<ParseResult> {
  let doc = docs.get(name);
  if (!doc) {
    doc = await readDocument(join(dir, name), { fileName: name, ocr: 'never' });
    docs.set(name, doc);
  }
  return buildParseResult(doc, name, mode);
}

function byText(nodes: ParseNode[], start: string): ParseNode {
  const n = nodes.find((x) => x.text.startsWith(start));
  if (!n) throw new Error(`no node starting "${start}" in ${nodes.map((x) => x.text.slice(0, 30)).join(' | ')}`);
  return n;
}

describe('pro mode on a report (sections, furniture, a paragraph over a page break)', () => {
  let nodes: ParseNode[];
  let result: ParseResult;
  beforeAll(async () => {
    result = await parse('parse-report.pdf', 'pro');
    nodes = result.nodes!;
  });

  it('finds the document title as the first, top-level Title', () => {
    expect(nodes[0]).toMatchObject({ id: 1, type: 'Title', text: 'Quarterly Business Review', parent_id: -1, relation: 'part_of' });
    const cb = nodes[0]!.composing_blocks[0]!;
    expect(cb.system).toBe('PixelSpace');
    expect(cb.layout_width).toBe(1190);
    expect(cb.layout_height).toBe(1684);
    // drawn at x=60pt, baseline 750pt, 22pt: top-left near (120, 1684-2*(750+22*0.75))
    expect(cb.coordinates[0]).toBeGreaterThanOrEqual(115);
    expect(cb.coordinates[0]).toBeLessThanOrEqual(125);
    expect(Math.abs(cb.coordinates[3] - (1684 - 1500))).toBeLessThan(16);
  });

  it('builds the section hierarchy from heading sizes and numbering', () => {
    const title = byText(nodes, 'Quarterly Business Review');
    const overview = byText(nodes, '1 Overview');
    const market = byText(nodes, '1.1 Market Conditions');
    const results = byText(nodes, '2 Results');
    const outlook = byText(nodes, '2.1 Outlook');
    expect(overview.type).toBe('Title');
    expect(overview.parent_id).toBe(title.id);
    expect(market.parent_id).toBe(overview.id);
    expect(results.parent_id).toBe(title.id);
    expect(outlook.parent_id).toBe(results.id);
    const prices = byText(nodes, 'Prices for raw materials');
    expect(prices.type).toBe('Text');
    expect(prices.parent_id).toBe(market.id);
    expect(prices.path_info.path).toEqual(['Quarterly Business Review', '1 Overview', '1.1 Market Conditions']);
    expect(prices.path_info.path_context).toBe('Quarterly Business Review > 1 Overview > 1.1 Market Conditions');
  });

  it('joins the paragraph cut by the page break, with a composing block from each page', () => {
    const board = byText(nodes, 'The board reviewed');
    expect(board.text).toContain('without further delay, since the current site');
    expect(board.composing_blocks.map((c) => c.page_number)).toEqual([1, 2]);
    expect(nodes.some((n) => n.text.startsWith('further delay'))).toBe(false);
  });

  it('moves headers and page numbers to furniture', () => {
    expect(nodes.some((n) => n.text.includes('NORTHWIND'))).toBe(false);
    expect(nodes.some((n) => /^\d+$/.test(n.text))).toBe(false);
    const f = result.furniture!;
    expect(f.filter((x) => x.kind === 'header').map((x) => [x.text, x.page_number])).toEqual([
      ['NORTHWIND TRADERS - INTERNAL', 1],
      ['NORTHWIND TRADERS - INTERNAL', 2],
    ]);
    expect(f.filter((x) => x.kind === 'page_number').map((x) => [x.text, x.page_number])).toEqual([
      ['1', 1],
      ['2', 2],
    ]);
  });

  it('lite gives flat blocks in reading order, ids from 1, without merging', async () => {
    const lite = await parse('parse-report.pdf', 'lite');
    expect(lite.nodes).toBeUndefined();
    const blocks = lite.blocks!;
    expect(blocks.map((b) => b.block_id)).toEqual(blocks.map((_, i) => i + 1));
    expect(blocks[0]).toMatchObject({ type: 'Title', text: 'Quarterly Business Review', system: 'PixelSpace', page_number: 1, layout_width: 1190, layout_height: 1684 });
    expect(blocks.find((b) => b.text.startsWith('further delay'))?.page_number).toBe(2);
    expect(blocks.some((b) => b.text.includes('NORTHWIND'))).toBe(false);
  });
});

describe('reading order and tables', () => {
  it('reads two columns left column first, even when their paragraph breaks line up', async () => {
    const nodes = (await parse('parse-two-column.pdf', 'pro')).nodes!;
    expect(nodes[0]).toMatchObject({ type: 'Title', text: 'Field Notes on Coastal Birds' });
    const order = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((w) => nodes.findIndex((n) => n.text.startsWith(`${w} paragraph`)));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(nodes.filter((n) => n.type === 'Text')).toHaveLength(4);
  });

  it('reads a ruled table with a cell spanning all columns, keeping every cell box', async () => {
    const nodes = (await parse('parse-tables.pdf', 'pro')).nodes!;
    const t = nodes.find((n) => n.caption.startsWith('Table 1'))!;
    expect(t.type).toBe('Table');
    expect(t.caption).toBe('Table 1: Sales by region (units)');
    const cells = t.cells!;
    expect(cells.find((c) => c.row === 0 && c.col === 0)).toMatchObject({ text: 'Sales by region', col_span: 4, row_span: 1 });
    expect(cells.find((c) => c.row === 2 && c.col === 0)!.text).toBe('North');
    expect(cells.find((c) => c.row === 2 && c.col === 3)!.text).toBe('150');
    expect(cells.find((c) => c.row === 4 && c.col === 2)!.text).toBe('91');
    expect(cells).toHaveLength(1 + 4 * 4);
    // a cell box is the grid cell: Q1 column starts at 60+160 pt = 440 px
    const q1 = cells.find((c) => c.text === 'Q1')!;
    expect(Math.abs(q1.box[0] - 440)).toBeLessThan(4);
    expect(t.text.startsWith('<table>')).toBe(true);
    expect(t.text).toContain('<td colspan="4">Sales by region</td>');
  });

  it('finds a borderless numeric table from aligned columns', async () => {
    const nodes = (await parse('parse-tables.pdf', 'pro')).nodes!;
    const t = nodes.find((n) => n.caption.startsWith('Table 2'))!;
    expect(t.type).toBe('Table');
    const cell = (r: number, c: number): string => t.cells!.find((x) => x.row === r && x.col === c)!.text;
    expect([cell(0, 0), cell(0, 1), cell(0, 2)]).toEqual(['Item', '2023', '2022']);
    expect([cell(2, 0), cell(2, 1), cell(2, 2)]).toEqual(['Operating costs', '(830.1)', '(790.4)']);
    expect(t.text.split('\n')[0]).toBe('| Item | 2023 | 2022 |');
    expect(t.text).toContain('| Net income | 420.4 | 309.8 |');
  });

  it('merges a table continued on the next page, dropping its repeated header', async () => {
    const pro = (await parse('parse-cross-page-table.pdf', 'pro')).nodes!;
    const tables = pro.filter((n) => n.type === 'Table');
    expect(tables).toHaveLength(1);
    const t = tables[0]!;
    expect(t.composing_blocks.map((c) => c.page_number)).toEqual([1, 2]);
    const rows = new Map<number, string>();
    for (const c of t.cells!.filter((x) => x.col === 0)) rows.set(c.row, c.text);
    expect([...rows.values()]).toEqual(['Month', 'January', 'February', 'March', 'April', 'May', 'June']);
    expect(t.cells!.find((c) => c.text === 'April')!.page_number).toBe(2);
    expect(t.cells!.find((c) => c.row === 6 && c.col === 2)!.text).toBe('14');
    // lite keeps the two parts apart
    const lite = (await parse('parse-cross-page-table.pdf', 'lite')).blocks!;
    expect(lite.filter((b) => b.type === 'Table').map((b) => b.page_number)).toEqual([1, 2]);
  });
});

describe('premium readings', () => {
  it('reads the numeric table as records with values, units and periods', async () => {
    const res = await parse('parse-tables.pdf', 'premium');
    const t = res.nodes!.find((n) => n.caption.startsWith('Table 2'))!;
    const v = t.vlm_understanding as { unit: string; records: { item: string; period: string; value: number; unit: string }[] };
    expect(v.unit).toBe('millions');
    expect(v.records).toHaveLength(6);
    expect(v.records).toContainEqual(expect.objectContaining({ item: 'Revenue', period: '2023', value: 1250.5, unit: 'millions' }));
    expect(v.records).toContainEqual(expect.objectContaining({ item: 'Operating costs', period: '2022', value: -790.4 }));
    const sales = res.nodes!.find((n) => n.caption.startsWith('Table 1'))!.vlm_understanding as { records: { item: string; period: string; value: number; unit: string }[] };
    expect(sales.records).toContainEqual(expect.objectContaining({ item: 'South', period: 'Q2', value: 102, unit: 'units' }));
    expect(res.markdown).toContain('| Revenue | 1,250.5 | 1,100.2 |');
  });

  it('reads the bar chart: title, axes, legend and the printed values', async () => {
    const res = await parse('parse-bar-chart.pdf', 'premium');
    const fig = res.nodes!.find((n) => n.type === 'Figure')!;
    expect(fig.caption).toBe('Figure 1: Revenue by year');
    expect(fig.vlm_understanding).toMatchObject({
      kind: 'chart',
      title: 'Revenue by Year',
      x_axis: { title: 'Fiscal year', labels: ['2021', '2022', '2023'] },
      y_axis: { title: 'USD m', ticks: [0, 50, 100, 150, 200] },
      legend: ['Revenue'],
    });
    const values = (fig.vlm_understanding as { values: { label: string; value: number }[] }).values.map((x) => [x.label, x.value]);
    expect(values).toEqual([
      ['2021', 80],
      ['2022', 120],
      ['2023', 145],
    ]);
    // the chart's labels belong to the figure, not to text nodes
    expect(res.nodes!.some((n) => n.type === 'Text' && /^(2021|Fiscal year|Revenue)$/.test(n.text))).toBe(false);
    expect(res.markdown).toBe('# Results\n\n> Figure (page 1): Figure 1: Revenue by year\n');
  });

  it('pro leaves vlm_understanding null and gives no markdown', async () => {
    const res = await parse('parse-bar-chart.pdf', 'pro');
    expect(res.markdown).toBeUndefined();
    expect(res.nodes!.every((n) => n.vlm_understanding === null)).toBe(true);
  });
});
