import { tokenizeForSearch } from '../store/library-tokens.js';

/**
 * Finance synonyms (English and Chinese) so that a question worded one way finds a page worded
 * another: "revenue" finds "net sales" and 营业收入. Each group is a set of interchangeable terms.
 */
const SYNONYM_GROUPS: string[][] = [
  ['revenue', 'revenues', 'net sales', 'sales', 'turnover', '营业收入', '营收', '收入'],
  ['cost of revenue', 'cost of sales', 'cost of goods sold', 'cogs', '营业成本'],
  ['operating income', 'income from operations', 'operating profit', '营业利润'],
  ['net income', 'net earnings', 'net profit', '净利润'],
  ['total assets', '资产总计', '总资产'],
  ['total liabilities', '负债合计', '总负债'],
  ['inventory', 'inventories', '存货'],
  ['receivables', 'accounts receivable', '应收账款'],
  ['payables', 'accounts payable', '应付账款'],
  ['capital expenditures', 'capex', 'purchases of property', '资本开支', '资本支出', '购建固定资产'],
  ['property plant and equipment', 'pp&e', 'fixed assets', '固定资产'],
  ['cash from operations', 'operating activities', '经营活动'],
  ['dividends', 'dividend', '股利', '分红'],
  ['debt', 'borrowings', 'notes', '借款', '负债'],
  ['customers', 'customer', 'clients', 'airlines', 'government', '客户'],
  ['acquired', 'acquisition', 'acquisitions', 'acquire', 'purchase', 'merger', '收购', '并购'],
  ['employees', 'headcount', 'workforce', '员工'],
  ['risk', 'risks', 'risk factors', '风险'],
  ['segment', 'segments', '分部', '板块'],
  ['shares', 'share repurchase', 'buyback', '回购'],
  ['competitors', 'competition', '竞争'],
];

const STOP = new Set(
  `a an the of in on at to for from by with and or as is are was were be been does did do has have had what which who whom how why when where
  this that these those it its their they there as per than then also any all into about over under between within using use based give answer
  please tell show list name main mentioned report 10k 10-k fy fiscal year company 的 了 是 在 和 与 及 其 吗 呢 什么 哪些 多少 如何 公司`.split(/\s+/),
);

export function contentTokens(text: string): string[] {
  return tokenizeForSearch(text).filter((t) => !STOP.has(t) && !/^\d{1,2}$/.test(t) && !/^(fy|q[1-4])?'?(19|20)?\d{2}$/.test(t));
}

/** Query tokens plus the tokens of every synonym group a query term belongs to. */
export function expandQuery(text: string): { tokens: string[]; expanded: string[] } {
  const tokens = contentTokens(text);
  const lower = text.toLowerCase();
  const extra: string[] = [];
  for (const group of SYNONYM_GROUPS) {
    if (group.some((term) => (/[a-z]/.test(term) ? new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\&]/g, '\\$&')}\\b`).test(lower) : lower.includes(term)))) {
      for (const term of group) extra.push(...tokenizeForSearch(term));
    }
  }
  return { tokens, expanded: [...new Set([...tokens, ...extra.filter((t) => !STOP.has(t))])] };
}
