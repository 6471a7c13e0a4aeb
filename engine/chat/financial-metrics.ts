/**
 * Financial metrics over statement line items. Each metric names the items it needs and computes
 * its value for a fiscal year, returning the formula with the numbers put in, so the answer shows its work.
 */
export type MetricKind = 'percent' | 'ratio' | 'days' | 'amount' | 'times';

/** Value of a line item for a fiscal year, in currency units (already scaled); null when not found. */
export type ItemGetter = (itemId: string, year: number) => number | null;

export interface MetricResult {
  value: number;
  /** the formula in words, e.g. "operating income / revenue" */
  formula: string;
  /** the formula with the numbers put in (numbers in the display unit) */
  worked: string;
}

export interface MetricDef {
  id: string;
  en: string;
  zh: string;
  kind: MetricKind;
  /** how a question names it */
  question: RegExp;
  /** items read for year t; `prior` also needs year t-1 (averages, changes) */
  items: string[];
  prior: boolean;
  compute(get: ItemGetter, year: number, fmt: (v: number) => string): MetricResult | null;
}

function avg(get: ItemGetter, id: string, year: number): number | null {
  const a = get(id, year);
  const b = get(id, year - 1);
  if (a === null || b === null) return null;
  return (a + b) / 2;
}

function ratio(id: string, en: string, zh: string, question: RegExp, num: string, den: string, kind: MetricKind, formula: string): MetricDef {
  return {
    id, en, zh, kind, question, items: [num, den], prior: false,
    compute(get, year, fmt) {
      const a = get(num, year);
      const b = get(den, year);
      if (a === null || b === null || b === 0) return null;
      const value = kind === 'percent' ? (Math.abs(a) / b) * 100 : a / b;
      return { value, formula, worked: `${fmt(Math.abs(a))} / ${fmt(b)}${kind === 'percent' ? ' × 100%' : ''}` };
    },
  };
}

function totalDebt(get: ItemGetter, year: number): { value: number; parts: number[] } | null {
  const lt = get('long_term_debt', year);
  const st = get('short_term_debt', year);
  if (lt === null && st === null) return null;
  const parts = [st ?? 0, lt ?? 0];
  return { value: parts[0]! + parts[1]!, parts };
}

export const METRICS: MetricDef[] = [
  ratio('gross_margin', 'gross margin', '毛利率', /\bgross (profit )?margin\b|毛利率/i, 'gross_profit', 'revenue', 'percent', 'gross profit / revenue'),
  ratio('operating_margin', 'operating margin', '营业利润率', /\boperating (profit )?margins?\b|\bebit margin\b|营业利润率|经营利润率/i, 'operating_income', 'revenue', 'percent', 'operating income / revenue'),
  ratio('net_margin', 'net profit margin', '净利率', /\bnet (profit |income )?margin\b|\bprofit margin\b|净利率|净利润率/i, 'net_income', 'revenue', 'percent', 'net income / revenue'),
  ratio('current_ratio', 'current ratio', '流动比率', /\bcurrent ratio\b|流动比率/i, 'current_assets', 'current_liabilities', 'ratio', 'current assets / current liabilities'),
  {
    id: 'quick_ratio', en: 'quick ratio', zh: '速动比率', kind: 'ratio', question: /\b(quick|acid[- ]test) ratio\b|速动比率/i, items: ['current_assets', 'inventory', 'current_liabilities'], prior: false,
    compute(get, y, fmt) {
      const ca = get('current_assets', y), inv = get('inventory', y) ?? 0, cl = get('current_liabilities', y);
      if (ca === null || cl === null || cl === 0) return null;
      return { value: (ca - inv) / cl, formula: '(current assets − inventories) / current liabilities', worked: `(${fmt(ca)} − ${fmt(inv)}) / ${fmt(cl)}` };
    },
  },
  ratio('capex_to_revenue', 'capital expenditure to revenue', '资本开支占营业收入比例', /\b(capex|capital expenditures?)\b.*\b(revenues?|sales)\b|\bcapital intensity\b|资本开支.*收入|资本支出.*收入/i, 'capex', 'revenue', 'percent', 'capital expenditures / revenue'),
  ratio('effective_tax_rate', 'effective tax rate', '实际税率', /\beffective (income )?tax rate\b|有效税率|实际税率/i, 'income_tax', 'pretax_income', 'percent', 'income tax expense / income before income taxes'),
  ratio('debt_to_assets', 'liabilities to assets', '资产负债率', /\b(debt|liabilities)[- ]to[- ]assets?\b|资产负债率/i, 'total_liabilities', 'total_assets', 'percent', 'total liabilities / total assets'),
  ratio('dividend_payout', 'dividend payout ratio', '股利支付率', /\b(dividend )?payout ratio\b|股利支付率|分红率/i, 'dividends', 'net_income', 'percent', 'dividends paid / net income'),
  {
    id: 'roa', en: 'return on assets', zh: '总资产收益率', kind: 'percent', question: /\b(return on (total )?assets|roa)\b|总资产(收益|报酬)率|资产回报率/i, items: ['net_income', 'total_assets'], prior: true,
    compute(get, y, fmt) {
      const ni = get('net_income', y), a = avg(get, 'total_assets', y);
      if (ni === null || a === null || a === 0) return null;
      return { value: (ni / a) * 100, formula: 'net income / average total assets', worked: `${fmt(ni)} / ((${fmt(get('total_assets', y)!)} + ${fmt(get('total_assets', y - 1)!)}) / 2) × 100%` };
    },
  },
  {
    id: 'roe', en: 'return on equity', zh: '净资产收益率', kind: 'percent', question: /\b(return on (shareholders'? |stockholders'? )?equity|roe)\b|净资产收益率/i, items: ['net_income', 'equity'], prior: true,
    compute(get, y, fmt) {
      const ni = get('net_income', y), e = avg(get, 'equity', y);
      if (ni === null || e === null || e === 0) return null;
      return { value: (ni / e) * 100, formula: "net income / average shareholders' equity", worked: `${fmt(ni)} / ((${fmt(get('equity', y)!)} + ${fmt(get('equity', y - 1)!)}) / 2) × 100%` };
    },
  },
  turnover('inventory_turnover', 'inventory turnover', '存货周转率', /\binventory turnover\b|存货周转率/i, 'cost_of_revenue', 'inventory', 'cost of revenue / average inventories'),
  turnover('receivables_turnover', 'receivables turnover', '应收账款周转率', /\b(accounts )?receivables? turnover\b|应收账款周转率/i, 'revenue', 'receivables', 'revenue / average accounts receivable'),
  turnover('asset_turnover', 'total asset turnover', '总资产周转率', /\b(total )?asset turnover\b|总资产周转率/i, 'revenue', 'total_assets', 'revenue / average total assets'),
  {
    id: 'ccc', en: 'cash conversion cycle', zh: '现金转换周期', kind: 'days', question: /\b(cash conversion cycle|ccc)\b|现金(转换|循环)周期/i, items: ['inventory', 'receivables', 'payables', 'cost_of_revenue', 'revenue'], prior: true,
    compute(get, y) {
      const inv = avg(get, 'inventory', y), ar = avg(get, 'receivables', y), ap = avg(get, 'payables', y);
      const cogs = get('cost_of_revenue', y), rev = get('revenue', y);
      const inv1 = get('inventory', y), inv0 = get('inventory', y - 1);
      if (inv === null || ar === null || ap === null || cogs === null || rev === null || inv1 === null || inv0 === null) return null;
      const dio = (365 * inv) / cogs, dso = (365 * ar) / rev, dpo = (365 * ap) / (cogs + (inv1 - inv0));
      return {
        value: dio + dso - dpo,
        formula: 'DIO + DSO − DPO; DIO = 365 × avg inventories / COGS; DSO = 365 × avg receivables / revenue; DPO = 365 × avg payables / (COGS + change in inventories)',
        worked: `${dio.toFixed(2)} + ${dso.toFixed(2)} − ${dpo.toFixed(2)}`,
      };
    },
  },
  days('dio', 'days inventory outstanding', '存货周转天数', /\b(dio|days inventory outstanding|days in inventory)\b|存货周转天数/i, 'inventory', 'cost_of_revenue', '365 × average inventories / cost of revenue'),
  days('dso', 'days sales outstanding', '应收账款周转天数', /\b(dso|days sales outstanding)\b|应收账款周转天数/i, 'receivables', 'revenue', '365 × average accounts receivable / revenue'),
  {
    id: 'free_cash_flow', en: 'free cash flow', zh: '自由现金流', kind: 'amount', question: /\bfree cash flows?\b|\bfcf\b|自由现金流/i, items: ['operating_cash_flow', 'capex'], prior: false,
    compute(get, y, fmt) {
      const cfo = get('operating_cash_flow', y), cx = get('capex', y);
      if (cfo === null || cx === null) return null;
      return { value: cfo - Math.abs(cx), formula: 'cash from operations − capital expenditures', worked: `${fmt(cfo)} − ${fmt(Math.abs(cx))}` };
    },
  },
  {
    id: 'total_debt', en: 'total debt', zh: '有息负债', kind: 'amount', question: /\b(total )?debt\b|有息负债|借款总额/i, items: ['short_term_debt', 'long_term_debt'], prior: false,
    compute(get, y, fmt) {
      const d = totalDebt(get, y);
      if (!d) return null;
      return { value: d.value, formula: 'short-term debt (incl. current portion of long-term debt) + long-term debt', worked: `${fmt(d.parts[0]!)} + ${fmt(d.parts[1]!)}` };
    },
  },
  {
    id: 'gross_profit_derived', en: 'gross profit', zh: '毛利', kind: 'amount', question: /$^/, items: ['revenue', 'cost_of_revenue'], prior: false,
    compute(get, y, fmt) {
      const r = get('revenue', y), c = get('cost_of_revenue', y);
      if (r === null || c === null) return null;
      return { value: r - Math.abs(c), formula: 'revenue − cost of revenue', worked: `${fmt(r)} − ${fmt(Math.abs(c))}` };
    },
  },
];

function turnover(id: string, en: string, zh: string, question: RegExp, num: string, den: string, formula: string): MetricDef {
  return {
    id, en, zh, kind: 'times', question, items: [num, den], prior: true,
    compute(get, y, fmt) {
      const a = get(num, y), b = avg(get, den, y);
      if (a === null || b === null || b === 0) return null;
      return { value: Math.abs(a) / b, formula, worked: `${fmt(Math.abs(a))} / ((${fmt(get(den, y)!)} + ${fmt(get(den, y - 1)!)}) / 2)` };
    },
  };
}

function days(id: string, en: string, zh: string, question: RegExp, num: string, den: string, formula: string): MetricDef {
  return {
    id, en, zh, kind: 'days', question, items: [num, den], prior: true,
    compute(get, y, fmt) {
      const a = avg(get, num, y), b = get(den, y);
      if (a === null || b === null || b === 0) return null;
      return { value: (365 * a) / Math.abs(b), formula, worked: `365 × ((${fmt(get(num, y)!)} + ${fmt(get(num, y - 1)!)}) / 2) / ${fmt(Math.abs(b))}` };
    },
  };
}

export const METRIC_BY_ID: Map<string, MetricDef> = new Map(METRICS.map((m) => [m.id, m]));

/** Growth of a value between two years, in percent. */
export function growthPercent(from: number, to: number): number | null {
  if (from === 0) return null;
  return ((to - from) / Math.abs(from)) * 100;
}
