import type { Page, TextLine } from '../../../engine/core/page.js';

/**
 * Test pages built line by line, the way a PDF text layer gives them: a label at the left margin
 * and each figure as its own right-aligned line (as 10-K statements usually come out).
 */
export function line(text: string, x: number, y: number, width = text.length * 9): TextLine {
  return { text, bbox: [x, y, x + width, y + 20], runs: [], fontSize: 18, bold: false, source: 'text', confidence: 1 };
}

/** rows: [label, ...figures]; figure columns end at x = 900, 1100, 1300 */
export function statementPage(pageNumber: number, title: string, unit: string, years: string[], rows: string[][]): Page {
  const lines: TextLine[] = [line(title, 300, 80), line(unit, 300, 110)];
  const colRight = [900, 1100, 1300];
  years.forEach((y, i) => lines.push(line(y, colRight[i]! - y.length * 9, 160)));
  rows.forEach((r, k) => {
    const y = 200 + k * 30;
    lines.push(line(r[0]!, 100, y));
    r.slice(1).forEach((v, i) => lines.push(line(v, colRight[i]! - v.length * 9, y)));
  });
  return { pageNumber, width: 1224, height: 1584, lines, rules: [], images: [], ocr: false, rotation: 0 };
}

export function prosePage(pageNumber: number, paragraphs: string[]): Page {
  return {
    pageNumber,
    width: 1224,
    height: 1584,
    lines: paragraphs.map((p, i) => line(p, 100, 100 + i * 40, Math.min(1000, p.length * 9))),
    rules: [],
    images: [],
    ocr: false,
    rotation: 0,
  };
}

/** A small 10-K: income statement p.2, balance sheet p.3, cash flows p.4 (fiscal 2023 and 2022, in millions). */
export function globexPages(): Page[] {
  return [
    prosePage(1, [
      'Globex Industries Inc. Annual Report on Form 10-K for fiscal year 2023.',
      'Our largest customers are national grocery chains, which accounted for 35% of net sales in 2023.',
      'On March 3, 2023, we acquired Initech Foods for $250 million in cash.',
    ]),
    statementPage(2, 'CONSOLIDATED STATEMENTS OF INCOME', '(In millions, except per share data)', ['2023', '2022'], [
      ['Net sales', '$ 8,000', '$ 6,400'],
      ['Cost of sales', '5,200', '4,300'],
      ['Gross profit', '2,800', '2,100'],
      ['Operating income', '1,200', '880'],
      ['Income before income taxes', '1,100', '800'],
      ['Provision for income taxes', '231', '176'],
      ['Net income', '869', '624'],
    ]),
    statementPage(3, 'CONSOLIDATED BALANCE SHEETS', '(In millions)', ['2023', '2022'], [
      ['Cash and cash equivalents', '500', '420'],
      ['Accounts receivable, net', '900', '700'],
      ['Inventories', '1,300', '1,100'],
      ['Total current assets', '2,700', '2,220'],
      ['Property, plant and equipment, net', '3,100', '2,900'],
      ['Total assets', '7,400', '6,600'],
      ['Accounts payable', '800', '750'],
      ['Total current liabilities', '1,500', '1,350'],
      ['Long-term debt', '2,000', '2,100'],
      ['Total liabilities', '3,900', '3,800'],
    ]),
    statementPage(4, 'CONSOLIDATED STATEMENTS OF CASH FLOWS', '(In millions)', ['2023', '2022'], [
      ['Net cash provided by operating activities', '1,150', '900'],
      ['Purchases of property, plant and equipment', '(480)', '(400)'],
      ['Dividends paid', '(200)', '(180)'],
    ]),
  ];
}

/** 一份中文年报：利润表第 2 页，资产负债表第 3 页（单位：万元）。 */
export function huaxingPages(): Page[] {
  return [
    prosePage(1, ['华兴电子股份有限公司 2023 年年度报告', '公司主要客户为国内通信设备制造商，前五名客户销售额占营业收入的 42%。']),
    statementPage(2, '合并利润表', '单位：万元', ['2023年', '2022年'], [
      ['营业收入', '150,000', '120,000'],
      ['营业成本', '105,000', '86,400'],
      ['营业利润', '18,000', '13,200'],
      ['利润总额', '17,500', '13,000'],
      ['所得税费用', '2,625', '1,950'],
      ['净利润', '14,875', '11,050'],
    ]),
    statementPage(3, '合并资产负债表', '单位：万元', ['2023年', '2022年'], [
      ['存货', '30,000', '26,000'],
      ['流动资产合计', '90,000', '80,000'],
      ['资产总计', '200,000', '180,000'],
      ['流动负债合计', '60,000', '50,000'],
      ['负债合计', '95,000', '88,000'],
    ]),
  ];
}
