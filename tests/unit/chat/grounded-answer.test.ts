import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../../engine/api/context.js';
import { answerGrounded } from '../../../engine/chat/grounded-answer.js';
import { Library } from '../../../engine/store/library.js';
import { globexPages, huaxingPages } from './statement-pages.js';

const owner: KeyRecord = { id: 'owner', name: 'owner', balance: null, owner: true };
let library: Library;

beforeAll(() => {
  library = new Library(new Database(':memory:'));
  library.indexDocument({ docId: 'globex', ownerKeyId: 'owner', fileName: 'globex-10k-2023.pdf', pageCount: 4, blobHash: 'h1', pages: globexPages() });
  library.indexDocument({ docId: 'huaxing', ownerKeyId: 'owner', fileName: '华兴电子2023年年度报告.pdf', pageCount: 3, blobHash: 'h2', pages: huaxingPages() });
});

const ask = (q: string, history: { role: string; content: string }[] = []) => answerGrounded(library, owner, [...history, { role: 'user', content: q }]);
const firstLine = (t: string) => t.split('\n')[0]!;

describe('numeric answers from the statements, with the formula and the cited page', () => {
  it('revenue growth', () => {
    const a = ask('What was Globex revenue growth from FY2022 to FY2023?');
    expect(firstLine(a.text)).toContain('25.0%');
    expect(a.text).toContain('$6,400 million');
    expect(a.text).toContain('$8,000 million');
    expect(a.citations).toEqual([{ docId: 'globex', fileName: 'globex-10k-2023.pdf', pageNumber: 2 }]);
    expect(a.text).toMatch(/Formula: \(8,000 − 6,400\) \/ 6,400 × 100% = 25\.0%/);
  });

  it('operating margin, both years, and a yes/no verdict', () => {
    const a = ask('Did Globex improve its operating margin in FY2023?');
    expect(firstLine(a.text)).toMatch(/^Yes\. Operating margin increased from 13\.8% in FY2022 to 15\.0% in FY2023/);
    expect(a.citations.map((c) => c.pageNumber)).toEqual([2]);
  });

  it('current and quick ratio from the balance sheet', () => {
    expect(firstLine(ask('What is the current ratio of Globex for FY2023?').text)).toContain('1.80');
    const q = ask('Globex quick ratio FY2023?');
    expect(firstLine(q.text)).toContain('0.93');
    expect(q.text).toContain('(current assets − inventories) / current liabilities');
    expect(q.citations.map((c) => c.pageNumber)).toEqual([3]);
  });

  it('capex to revenue cites the cash flow statement and the income statement', () => {
    const a = ask('What was Globex capex as a share of revenue in FY2023?');
    expect(firstLine(a.text)).toContain('6.0%');
    expect(a.citations.map((c) => c.pageNumber).sort()).toEqual([2, 4]);
  });

  it('effective tax rate, ROA, inventory turnover, free cash flow', () => {
    expect(firstLine(ask('Globex effective tax rate in 2023?').text)).toContain('21.0%');
    expect(firstLine(ask('What is the return on assets (ROA) of Globex in FY2023?').text)).toContain('12.4%');
    expect(firstLine(ask('Globex inventory turnover for FY2023').text)).toContain('4.33x');
    expect(firstLine(ask('What was Globex free cash flow in FY2023?').text)).toContain('$670 million');
  });

  it('a line item in the unit the question asks for', () => {
    expect(firstLine(ask('What were Globex total assets at the end of FY2023 in USD billions?').text)).toContain('$7.4 billion');
    expect(firstLine(ask('Globex capital expenditures in FY2022 (in USD millions)?').text)).toContain('$400 million');
  });
});

describe('Chinese questions', () => {
  it('answers in Chinese with 万元 and the page', () => {
    const a = ask('华兴电子2023年营业收入同比增长多少？');
    expect(a.lang).toBe('zh');
    expect(firstLine(a.text)).toContain('25.0%');
    expect(firstLine(a.text)).toContain('150,000 万元');
    expect(a.citations[0]).toMatchObject({ docId: 'huaxing', pageNumber: 2 });
  });

  it('ratios: 流动比率, 实际税率, 资产负债率', () => {
    expect(firstLine(ask('华兴电子2023年的流动比率是多少？').text)).toContain('1.50');
    expect(firstLine(ask('华兴电子2023年实际税率？').text)).toContain('15.0%');
    expect(firstLine(ask('华兴电子2023年资产负债率是多少？').text)).toContain('47.5%');
  });
});

describe('conversation', () => {
  it('a follow-up resolves the company and the year from the history', () => {
    const history = [
      { role: 'user', content: 'What was Globex net income in FY2023?' },
      { role: 'assistant', content: 'Net income for FY2023: $869 million.' },
    ];
    expect(firstLine(ask('What was it in FY2022?', history).text)).toContain('$624 million');
    expect(firstLine(ask('And the gross margin that year?', history).text)).toContain('35.0%');
  });

  it('a system message asking for Chinese is honoured', () => {
    const a = answerGrounded(library, owner, [
      { role: 'system', content: '请用中文回答。' },
      { role: 'user', content: 'What was Globex net income in FY2023?' },
    ]);
    expect(a.lang).toBe('zh');
    expect(firstLine(a.text)).toContain('净利润');
  });
});

describe('text questions and missing evidence', () => {
  it('quotes the passage that answers', () => {
    const a = ask('Who are the largest customers of Globex?');
    expect(a.text).toContain('national grocery chains, which accounted for 35% of net sales');
    expect(a.citations[0]).toMatchObject({ docId: 'globex', pageNumber: 1 });
  });

  it('says plainly when the evidence is not there', () => {
    const a = ask('What was the revenue of Umbrella Corporation in 2023?');
    expect(a.found).toBe(false);
    expect(a.text).toMatch(/^Not in your documents/);
    expect(a.citations).toEqual([]);
    const b = ask('What was Globex revenue in FY2015?');
    expect(b.found).toBe(false);
    expect(b.text).toMatch(/^Not in your documents/);
  });

  it('a key sees only its own documents', () => {
    const other: KeyRecord = { id: 'k2', name: 'k2', balance: 10, owner: false };
    const a = answerGrounded(library, other, [{ role: 'user', content: 'What was Globex revenue in FY2023?' }]);
    expect(a.found).toBe(false);
  });
});

describe('names in questions', () => {
  it('a capitalised first word is not taken for an unknown company', () => {
    const a = ask('Summarize who the largest customers of Globex are.');
    expect(a.found).toBe(true);
    expect(a.text).toContain('national grocery chains');
    const b = ask("Umbrella's revenue in 2023?");
    expect(b.found).toBe(false);
  });
});
