import { describe, expect, it } from 'vitest';
import { readStatementPage, detectUnit, parseNumber } from '../../../engine/chat/statement-rows.js';
import { readQuestion } from '../../../engine/chat/question-frame.js';
import type { StoredPage } from '../../../engine/store/library.js';
import { line } from './statement-pages.js';

function stored(lines: ReturnType<typeof line>[], text: string): StoredPage {
  return { docId: 'd', fileName: 'f.pdf', pageNumber: 7, text, lines: lines.map((l) => ({ t: l.text, b: l.bbox })) };
}

describe('readStatementPage', () => {
  it('ties figures to the years of the column headers, with $ and parentheses apart, ascending years too', () => {
    const lines = [
      line('Year Ended December 31,', 600, 100),
      line('2015', 700, 130), line('2016', 900, 130), line('2017', 1100, 130),
      line('Total net sales', 100, 170), line('$', 650, 170, 9), line('107,006', 690, 170), line('$', 850, 170, 9), line('135,987', 890, 170), line('$', 1050, 170, 9), line('177,866', 1090, 170),
      line('Purchases of property and equipment', 100, 200), line('(4,589)', 690, 200), line('(6,737)', 890, 200), line('( 11,955 )', 1090, 200),
      line('Other', 100, 230), line('—', 720, 230), line('12', 910, 230), line('-', 1110, 230),
    ];
    const p = readStatementPage(stored(lines, '(in millions)'), []);
    expect(p.unitScale).toBe(1e6);
    const sales = p.rows.find((r) => r.label === 'Total net sales')!;
    expect(sales.values.map((v) => [v.year, v.value])).toEqual([[2015, 107006], [2016, 135987], [2017, 177866]]);
    const capex = p.rows.find((r) => r.label.startsWith('Purchases'))!;
    expect(capex.values.map((v) => v.value)).toEqual([-4589, -6737, -11955]);
    expect(p.rows.find((r) => r.label === 'Other')!.values.map((v) => v.value)).toEqual([0, 12, 0]);
  });

  it('reads fiscal years from dated headers (Best Buy style) and 年 headers', () => {
    const lines = [line('February 2, 2019', 600, 100), line('February 3, 2018', 900, 100), line('Merchandise inventories', 100, 140), line('5,409', 700, 140), line('5,209', 1000, 140)];
    const p = readStatementPage(stored(lines, '($ in millions)'), []);
    expect(p.rows[0]!.values.map((v) => [v.year, v.value])).toEqual([[2019, 5409], [2018, 5209]]);
    const zh = readStatementPage(stored([line('2023年', 700, 100), line('2022年', 900, 100), line('存货', 100, 140), line('30,000', 700, 140), line('26,000', 900, 140)], '单位：万元'), []);
    expect(zh.unitScale).toBe(1e4);
    expect(zh.rows[0]!.values.map((v) => v.year)).toEqual([2023, 2022]);
  });

  it('units and numbers', () => {
    expect(detectUnit('(In thousands, except per share data)')).toEqual({ scale: 1e3, label: 'thousands' });
    expect(detectUnit('单位：人民币百万元')).toEqual({ scale: 1e6, label: '百万元' });
    expect(detectUnit('no unit here')).toEqual({ scale: 1, label: null });
    expect(parseNumber('(1,577)')).toBe(-1577);
    expect(parseNumber('12.5%')).toBe(12.5);
    expect(parseNumber('abc')).toBeNull();
  });
});

describe('readQuestion', () => {
  it('reads years, unit, metric and direction', () => {
    const f = readQuestion("Has Microsoft increased its debt on balance sheet between FY2023 and the FY2022 period? Answer in USD billions.");
    expect(f.years).toEqual([2023, 2022]);
    expect(f.unit).toEqual({ scale: 1e9, label: 'billion' });
    expect(f.metric?.id).toBe('total_debt');
    expect(f.yesNo).toBe(true);
    expect(f.direction).toBe('up');
    expect(f.statement).toBe('balance');
    const zh = readQuestion('2023年毛利率是多少？');
    expect(zh.lang).toBe('zh');
    expect(zh.metric?.id).toBe('gross_margin');
    expect(zh.years).toEqual([2023]);
  });
});

describe('statements from parsed tables', () => {
  it('reads label, years and figures from table cells (spreadsheet or ruled table)', () => {
    const cell = (row: number, col: number, text: string) => ({ row, col, rowSpan: 1, colSpan: 1, text });
    const table = {
      docId: 'd', pageNumber: 7, tableIndex: 0, markdown: '',
      cells: [
        cell(0, 0, ''), cell(0, 1, 'Fiscal 2024'), cell(0, 2, 'Fiscal 2023'),
        cell(1, 0, 'Net revenues'), cell(1, 1, '$ 3,210.5'), cell(1, 2, '$ 2,980.0'),
        cell(2, 0, 'Diluted earnings per share'), cell(2, 1, '1.25'), cell(2, 2, '(0.40)'),
      ],
    };
    const p = readStatementPage(stored([], 'Amounts in millions'), [table]);
    const rev = p.rows.find((r) => r.label === 'Net revenues')!;
    expect(rev.values.map((v) => [v.year, v.value])).toEqual([[2024, 3210.5], [2023, 2980]]);
    expect(rev.scaled).toBe(true);
    const eps = p.rows.find((r) => r.label.startsWith('Diluted'))!;
    expect(eps.values.map((v) => v.value)).toEqual([1.25, -0.4]);
    expect(eps.scaled).toBe(false);
  });
});
