import type { KeyRecord } from '../api/context.js';
import type { Library } from '../store/library.js';
import { LINE_ITEM_BY_ID, labelMatch, type LineItem, type Statement } from './line-items.js';
import { readStatementPage, type StatementPage, type StatementRow } from './statement-rows.js';

/** One line item value read from a statement page, with where it was printed. */
export interface FoundValue {
  itemId: string;
  year: number;
  /** in currency units (the page's unit applied) */
  value: number;
  row: StatementRow;
  page: StatementPage;
}

const STATEMENT_QUERY: Record<Statement, string> = {
  balance: 'consolidated balance sheets total assets total liabilities stockholders equity current 资产负债表 资产总计 负债合计',
  income: 'consolidated statements of operations income earnings revenue net income per share 利润表 营业收入 净利润',
  cashflow: 'consolidated statements of cash flows operating activities investing activities financing 现金流量表 经营活动',
};

const STATEMENT_TITLE: Record<Statement, RegExp> = {
  balance: /balance sheets?|statements? of financial (position|condition)|资产负债表/i,
  income: /statements? of (consolidated )?(operations|income|earnings)|income statements?|statements? of comprehensive income|利润表|损益表/i,
  cashflow: /statements? of (consolidated )?cash flows?|cash flows? statements?|现金流量表/i,
};

/**
 * Reads line item values for the documents in scope: finds the statement pages by BM25, reads their
 * rows, and keeps the best-matching row (label, statement title on the page, the question's hint).
 */
export class StatementLookup {
  private readonly pages = new Map<string, StatementPage>();
  private readonly candidates = new Map<string, { docId: string; pageNumber: number; rank: number }[]>();
  private readonly found = new Map<string, FoundValue | null>();
  readonly used: FoundValue[] = [];

  constructor(
    private readonly library: Library,
    private readonly key: KeyRecord,
    private readonly docIds: readonly string[],
    private readonly statementHint: Statement | null,
  ) {}

  /** Value of an item for a year, in currency units; null when no statement shows it. */
  get(itemId: string, year: number): FoundValue | null {
    const k = `${itemId}@${year}`;
    if (!this.found.has(k)) this.found.set(k, this.find(itemId, year));
    const f = this.found.get(k) ?? null;
    if (f && !this.used.includes(f)) this.used.push(f);
    return f;
  }

  /** The years a statement shows for the item, latest first. */
  yearsOf(itemId: string): number[] {
    const item = LINE_ITEM_BY_ID.get(itemId);
    if (!item) return [];
    const best = this.bestRows(item)[0];
    if (!best) return [];
    return [...new Set(best.row.values.map((v) => v.year).filter((y): y is number => y !== null))].sort((a, b) => b - a);
  }

  private find(itemId: string, year: number): FoundValue | null {
    const item = LINE_ITEM_BY_ID.get(itemId);
    if (!item) return null;
    for (const c of this.bestRows(item)) {
      const v = c.row.values.find((x) => x.year === year);
      if (v) {
        const scale = c.row.scaled ? c.page.unitScale : 1;
        return { itemId, year, value: v.value * scale, row: c.row, page: c.page };
      }
    }
    return null;
  }

  private readonly ranked = new Map<string, { row: StatementRow; page: StatementPage; score: number }[]>();

  private bestRows(item: LineItem): { row: StatementRow; page: StatementPage; score: number }[] {
    let r = this.ranked.get(item.id);
    if (!r) {
      r = this.rankRows(item);
      this.ranked.set(item.id, r);
    }
    return r;
  }

  private rankRows(item: LineItem): { row: StatementRow; page: StatementPage; score: number }[] {
    const out: { row: StatementRow; page: StatementPage; score: number }[] = [];
    for (const c of this.candidatePages(item)) {
      const page = this.readPage(c.docId, c.pageNumber);
      if (!page) continue;
      const titled = STATEMENT_TITLE[item.statement].test(page.heading);
      const mentioned = STATEMENT_TITLE[item.statement].test(page.text);
      const summary = /selected (consolidated )?financial data|quarterly (financial )?(data|results)|five-year|summary of/i.test(page.heading);
      page.rows.forEach((row, idx) => {
        const m = labelMatch(item, row.label);
        if (m === 0 || !row.values.some((v) => v.year !== null)) return;
        let score = m + (titled ? 60 : mentioned ? 15 : 0) - (summary ? 40 : 0) - c.rank * 2;
        if (this.statementHint === item.statement && titled) score += 20;
        // the first matching row of a statement is the line item itself, later ones are sub-analyses
        score -= Math.min(10, idx / 20);
        out.push({ row, page, score });
      });
    }
    return out.sort((a, b) => b.score - a.score);
  }

  private candidatePages(item: LineItem): { docId: string; pageNumber: number; rank: number }[] {
    let c = this.candidates.get(item.id);
    if (!c) {
      const seen = new Set<string>();
      c = [];
      const queries = [`${STATEMENT_QUERY[item.statement]} ${item.en} ${item.zh}`, `${item.en} ${item.zh}`];
      for (const q of queries) {
        for (const h of this.library.search(this.key, q, { docIds: this.docIds, limit: 8 * Math.min(4, this.docIds.length) })) {
          const id = `${h.docId}#${h.pageNumber}`;
          if (seen.has(id)) continue;
          seen.add(id);
          c.push({ docId: h.docId, pageNumber: h.pageNumber, rank: c.length });
        }
      }
      this.candidates.set(item.id, c);
    }
    return c;
  }

  private readPage(docId: string, pageNumber: number): StatementPage | null {
    const id = `${docId}#${pageNumber}`;
    let p = this.pages.get(id) ?? cachedPage(this.library, id);
    if (!p) {
      const stored = this.library.getPage(docId, pageNumber);
      if (!stored) return null;
      p = readStatementPage(stored, this.library.getTables(docId, pageNumber));
      cachePage(this.library, id, p);
    }
    this.pages.set(id, p);
    return p;
  }
}

/** Statement pages read recently, per library, dropped whenever the library changes. */
const PAGE_CACHE_SIZE = 400;
const pageCache = new WeakMap<Library, { version: number; pages: Map<string, StatementPage> }>();

function cachedPage(library: Library, id: string): StatementPage | undefined {
  const c = pageCache.get(library);
  if (!c || c.version !== library.version) return undefined;
  const p = c.pages.get(id);
  if (p) {
    c.pages.delete(id);
    c.pages.set(id, p);
  }
  return p;
}

function cachePage(library: Library, id: string, page: StatementPage): void {
  let c = pageCache.get(library);
  if (!c || c.version !== library.version) {
    c = { version: library.version, pages: new Map() };
    pageCache.set(library, c);
  }
  c.pages.set(id, page);
  if (c.pages.size > PAGE_CACHE_SIZE) c.pages.delete(c.pages.keys().next().value!);
}
