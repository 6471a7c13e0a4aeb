/**
 * Financial statement line items: how a statement labels them (English and Chinese), which
 * statement carries them, and how questions name them. Patterns are matched against a row label
 * lower-cased with punctuation collapsed; earlier patterns are the better match.
 */
export type Statement = 'income' | 'balance' | 'cashflow';

export interface LineItem {
  id: string;
  en: string;
  zh: string;
  statement: Statement;
  /** regexes over a normalised row label, best first */
  labels: RegExp[];
  /** how a question names it (English and Chinese) */
  question: RegExp;
  /** values are amounts a unit scales (false: per share) */
  scaled: boolean;
}

export const LINE_ITEMS: LineItem[] = [
  {
    id: 'revenue', en: 'revenue', zh: '营业收入', statement: 'income', scaled: true,
    labels: [/^total net sales$/, /^total net revenues?$/, /^total revenues?$/, /^net sales$/, /^net revenues?$/, /^revenues?$/, /^total revenues? net/, /^sales$/, /^营业总收入$/, /^营业收入$/, /^一、营业总收入$/, /^一、营业收入$/],
    question: /\b(revenues?|net sales|sales|top line|turnover)\b|营业收入|营收|收入/i,
  },
  {
    id: 'cost_of_revenue', en: 'cost of revenue', zh: '营业成本', statement: 'income', scaled: true,
    labels: [/^total cost of (revenues?|sales)$/, /^cost of (sales|revenues?|goods sold|products sold|merchandise sold)$/, /^merchandise costs?$/, /^costs? of (sales|revenues?|goods sold)\b/, /^营业成本$/, /^营业总成本$/],
    question: /\b(cost of (revenues?|sales|goods sold)|cogs)\b|营业成本/i,
  },
  {
    id: 'gross_profit', en: 'gross profit', zh: '毛利', statement: 'income', scaled: true,
    labels: [/^gross (profit|margin)$/, /^total gross (profit|margin)$/, /^毛利$/],
    question: /\bgross profit\b|毛利(?!率)/i,
  },
  {
    id: 'operating_income', en: 'operating income', zh: '营业利润', statement: 'income', scaled: true,
    labels: [/^operating income( \(loss\))?$/, /^income( \(loss\))? from operations$/, /^operating profit$/, /^earnings from operations$/, /^total operating income$/, /^营业利润$/, /^三、营业利润/],
    question: /\b(operating (income|profit)|income from operations|ebit)\b|营业利润/i,
  },
  {
    id: 'pretax_income', en: 'income before income taxes', zh: '利润总额', statement: 'income', scaled: true,
    labels: [/^(income|earnings)( \(loss\))? before (provision for )?income taxes/, /^(income|earnings) before taxes/, /^利润总额$/, /^四、利润总额/],
    question: /\b(pre-?tax (income|profit|earnings)|income before (income )?taxes)\b|利润总额|税前利润/i,
  },
  {
    id: 'income_tax', en: 'income tax expense', zh: '所得税费用', statement: 'income', scaled: true,
    labels: [/^provision for income taxes$/, /^income tax (expense|provision)$/, /^provision for (\(benefit from\) )?income taxes/, /^income taxes$/, /^(provision|benefit) for income taxes/, /^所得税费用$/, /^减[:：]所得税费用$/],
    question: /\b(income tax(es)?( expense)?|tax expense|provision for income taxes)\b|所得税/i,
  },
  {
    id: 'net_income', en: 'net income', zh: '净利润', statement: 'income', scaled: true,
    // the parent's share, never the noncontrolling interests' share
    labels: [/^net income$/, /^net earnings$/, /^net income \(loss\)$/, /^net (income|earnings)( \(loss\))? attributable to (?!non-?controlling|minority)[a-z .,&']+$/, /^net (loss|\(loss\)|\(loss\)\/income|\(loss\)\/earnings|\(loss\) income|\(loss\) earnings|earnings \(loss\))( attributable to (?!non-?controlling|minority)[a-z .,&']+)?$/, /^net (income|earnings)( \(loss\))? including non-?controlling interests?$/, /^净利润$/, /^五、净利润/, /^归属于母公司(所有者|股东)的净利润$/],
    question: /\b(net (income|earnings|profit)|bottom line)\b|净利润|净利/i,
  },
  {
    id: 'eps_diluted', en: 'diluted EPS', zh: '稀释每股收益', statement: 'income', scaled: false,
    labels: [/^diluted (net income|earnings) per (common )?share/, /^diluted earnings per share$/, /^稀释每股收益/],
    question: /\b(diluted )?(eps|earnings per share)\b|每股收益/i,
  },
  {
    id: 'total_assets', en: 'total assets', zh: '资产总计', statement: 'balance', scaled: true,
    labels: [/^total assets$/, /^资产总计$/, /^总资产$/, /^资产合计$/],
    question: /\btotal assets\b|总资产|资产总计|资产总额/i,
  },
  {
    id: 'total_liabilities', en: 'total liabilities', zh: '负债合计', statement: 'balance', scaled: true,
    labels: [/^total liabilities$/, /^负债合计$/, /^总负债$/],
    question: /\btotal liabilities\b(?! and)|总负债|负债合计|负债总额/i,
  },
  {
    id: 'current_assets', en: 'total current assets', zh: '流动资产合计', statement: 'balance', scaled: true,
    labels: [/^total current assets$/, /^流动资产合计$/],
    question: /\b(total )?current assets\b|流动资产/i,
  },
  {
    id: 'current_liabilities', en: 'total current liabilities', zh: '流动负债合计', statement: 'balance', scaled: true,
    labels: [/^total current liabilities$/, /^流动负债合计$/],
    question: /\b(total )?current liabilities\b|流动负债/i,
  },
  {
    id: 'inventory', en: 'inventories', zh: '存货', statement: 'balance', scaled: true,
    labels: [/^(merchandise )?inventor(y|ies)$/, /^inventor(y|ies), net$/, /^total inventor(y|ies)$/, /^存货$/],
    question: /\binventor(y|ies)\b|存货|库存/i,
  },
  {
    id: 'receivables', en: 'accounts receivable', zh: '应收账款', statement: 'balance', scaled: true,
    labels: [/^(accounts|trade) receivables?(, net)?( of allowance.*)?$/, /^receivables(, net)?$/, /^accounts receivable, less allowance/, /^应收账款$/],
    question: /\b(accounts |trade )?receivables?\b|应收账款/i,
  },
  {
    id: 'payables', en: 'accounts payable', zh: '应付账款', statement: 'balance', scaled: true,
    labels: [/^accounts payable$/, /^accounts payable and accrued/, /^trade payables?$/, /^应付账款$/],
    question: /\b(accounts |trade )?payables?\b|应付账款/i,
  },
  {
    id: 'ppe', en: 'property, plant and equipment, net', zh: '固定资产', statement: 'balance', scaled: true,
    labels: [/^property,? plant,? and equipment,? net$/, /^property and equipment,? net$/, /^(net )?property,? plant and equipment$/, /^property and equipment, net of/, /^property,? plant and equipment - net$/, /^固定资产$/, /^固定资产净额$/],
    question: /\b(pp&e|ppe|property,? plant,? (and|&) equipment|fixed assets)\b|固定资产/i,
  },
  {
    id: 'cash', en: 'cash and cash equivalents', zh: '货币资金', statement: 'balance', scaled: true,
    labels: [/^cash and cash equivalents$/, /^cash and equivalents$/, /^货币资金$/],
    question: /\bcash and (cash )?equivalents\b|货币资金|现金及现金等价物/i,
  },
  {
    id: 'short_term_debt', en: 'short-term debt', zh: '短期借款', statement: 'balance', scaled: true,
    labels: [/^current portion of long-term debt/, /^short-term (debt|borrowings)$/, /^short-term borrowings and current portion/, /^notes payable$/, /^commercial paper$/, /^current maturities of long-term debt/, /^短期借款$/, /^一年内到期的非流动负债$/],
    question: /\bshort-term (debt|borrowings)\b|短期借款/i,
  },
  {
    id: 'long_term_debt', en: 'long-term debt', zh: '长期借款', statement: 'balance', scaled: true,
    labels: [/^long-term debt(, (net|excluding current portion|less current portion).*)?$/, /^long-term debt, net of current/, /^long-term borrowings$/, /^长期借款$/],
    question: /\blong-term (debt|borrowings)\b|长期借款/i,
  },
  {
    id: 'equity', en: "total shareholders' equity", zh: '所有者权益合计', statement: 'balance', scaled: true,
    labels: [/^total (stockholders|shareholders)' equity$/, /^total (stockholders|shareholders) equity$/, /^total equity$/, /^所有者权益合计$/, /^股东权益合计$/],
    question: /\b((stock|share)holders' equity|total equity|book value)\b|所有者权益|股东权益|净资产/i,
  },
  {
    id: 'operating_cash_flow', en: 'net cash provided by operating activities', zh: '经营活动产生的现金流量净额', statement: 'cashflow', scaled: true,
    labels: [/^net cash (provided by|from|generated by) operating activities/, /^cash (provided by|from) operations$/, /^net cash provided by \(used in\) operating/, /^net cash\b.{0,30}\boperating activities$/, /^cash flows? from operating activities$/, /^经营活动产生的现金流量净额$/],
    question: /\b(operating cash flows?|cash (flows? )?from operations|cash (provided by|from) operating activities|cfo)\b|经营活动(产生的)?现金流/i,
  },
  {
    id: 'capex', en: 'capital expenditures', zh: '资本开支', statement: 'cashflow', scaled: true,
    labels: [/^purchases? of property,? plant,? and equipment/, /^purchases? of property and equipment/, /^capital expenditures?$/, /^additions to property/, /^payments for (acquisition of )?property/, /^expenditures for property/, /^capital spending$/, /^购建固定资产、无形资产和其他长期资产支付的现金$/],
    question: /\b(capital expenditures?|capex|capital spending|purchases? of (property|pp&e))\b|资本开支|资本支出|购建固定资产/i,
  },
  {
    id: 'dividends', en: 'dividends paid', zh: '分配股利', statement: 'cashflow', scaled: true,
    labels: [/^(cash )?dividends paid/, /^dividends paid to/, /^payments? of (cash )?dividends/, /^dividends$/, /^分配股利、利润或偿付利息支付的现金$/],
    question: /\bdividends?\b|股利|分红/i,
  },
  {
    id: 'depreciation', en: 'depreciation and amortization', zh: '折旧与摊销', statement: 'cashflow', scaled: true,
    labels: [/^depreciation and amortization$/, /^depreciation, amortization/, /^depreciation$/, /^固定资产折旧/],
    question: /\b(depreciation|d&a)\b|折旧/i,
  },
];

export const LINE_ITEM_BY_ID: Map<string, LineItem> = new Map(LINE_ITEMS.map((i) => [i.id, i]));

/** Lower-case, unify quotes and dashes, drop footnote marks and trailing punctuation. */
export function normalizeLabel(label: string): string {
  return label
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/[—–]/g, '-')
    .replace(/\(\d\)|\*+/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s.:,;$]+$/g, '')
    .trim();
}

/** 0 when no pattern matches; otherwise higher for earlier (better) patterns. */
export function labelMatch(item: LineItem, label: string): number {
  const n = normalizeLabel(label);
  for (let i = 0; i < item.labels.length; i++) if (item.labels[i]!.test(n)) return 100 - i;
  return 0;
}
