import { LINE_ITEMS, type LineItem, type Statement } from './line-items.js';
import { METRICS, type MetricDef } from './financial-metrics.js';

/**
 * What a question asks, read without a language model: the metric or line item, the fiscal
 * years, the unit wanted, whether it is a yes/no question about a direction, which statement it
 * points at, and the language to answer in. Follow-ups fill the gaps from the earlier turns.
 */
export interface QuestionFrame {
  text: string;
  lang: 'en' | 'zh';
  metric: MetricDef | null;
  item: LineItem | null;
  /** the question asks for a change or growth of the item/metric */
  change: boolean;
  years: number[];
  unit: { scale: number; label: string } | null;
  yesNo: boolean;
  direction: 'up' | 'down' | null;
  statement: Statement | null;
  /** the question refers back ("it", "that year", 该公司) */
  anaphora: boolean;
}

export function isChinese(s: string): boolean {
  const cjk = (s.match(/[\u3400-\u9fff]/g) ?? []).length;
  const latin = (s.match(/[A-Za-z]/g) ?? []).length;
  return cjk > 0 && cjk * 3 >= latin;
}

const CHANGE = /\b(growth|grow|grew|change[ds]?|increase[ds]?|decrease[ds]?|decline[ds]?|yoy|year[- ]over[- ]year|rise|rose|fell|drop(ped)?)\b|增长|增速|增幅|变化|变动|同比|下降|减少|增加/i;

export function readQuestion(text: string): QuestionFrame {
  const lang = isChinese(text) ? 'zh' : 'en';
  let metric: MetricDef | null = null;
  for (const m of METRICS) {
    if (m.question.test(text)) {
      metric = m;
      break;
    }
  }
  let item: LineItem | null = null;
  let bestAt = Infinity;
  for (const li of LINE_ITEMS) {
    const m = li.question.exec(text);
    // the most specific item wins: the longest match, then the earliest
    if (m && (item === null || m[0].length > bestAt)) {
      item = li;
      bestAt = m[0].length;
    }
  }
  // "gross margin" is a metric; "total debt" too: the item is then only a hint
  const years = readYears(text);
  const yesNo = /^\s*(does|did|has|have|is|was|were|are|can|will|do)\b/i.test(text) || /吗[？?]?\s*$|是否/.test(text);
  let direction: 'up' | 'down' | null = null;
  if (/\b(improv\w*|increas\w*|grow\w*|higher|rise|rising|expand\w*)\b|提高|增长|增加|上升|改善/i.test(text)) direction = 'up';
  if (/\b(declin\w*|decreas\w*|lower|fall\w*|drop\w*|shrink\w*|deteriorat\w*)\b|下降|减少|恶化/i.test(text)) direction = direction ?? 'down';
  let statement: Statement | null = null;
  if (/balance sheet|statement of financial position|资产负债表/i.test(text)) statement = 'balance';
  else if (/cash flows? statement|statements? of cash flows|现金流量表/i.test(text)) statement = 'cashflow';
  else if (/income statement|statements? of (income|operations|earnings)|P&L|利润表|损益表/i.test(text)) statement = 'income';
  return {
    text,
    lang,
    metric,
    item,
    change: CHANGE.test(text) && !(metric && metric.kind !== 'amount' && !yesNo && !/\b(change|growth)\b|变化|增长/.test(text)),
    years,
    unit: readUnit(text),
    yesNo,
    direction,
    statement,
    anaphora: /\b(it|its|that year|the same year|this company|the company|that company|they|their)\b|该公司|它|其|那一?年|同年|当年/i.test(text),
  };
}

export function readYears(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/(?<![\d,.])((?:19|20)\d{2})(?![\d,])|\bFY\s?'?(\d{2})(?!\d)/gi)) {
    const y = m[1] ?? (m[2] ? `20${m[2]}` : undefined);
    if (y) {
      const n = Number(y);
      if (!out.includes(n)) out.push(n);
    }
  }
  return out;
}

export function readUnit(text: string): { scale: number; label: string } | null {
  if (/\b(in |usd |us\$ ?|\$ ?)billions?\b|\bbillions of\b/i.test(text)) return { scale: 1e9, label: 'billion' };
  if (/\b(in |usd |us\$ ?|\$ ?)millions?\b|\bmillions of\b|\bin mn\b/i.test(text)) return { scale: 1e6, label: 'million' };
  if (/\b(in |usd |\$ ?)thousands?\b|\bthousands of\b/i.test(text)) return { scale: 1e3, label: 'thousand' };
  if (/亿元/.test(text)) return { scale: 1e8, label: '亿元' };
  if (/百万元/.test(text)) return { scale: 1e6, label: '百万元' };
  if (/万元/.test(text)) return { scale: 1e4, label: '万元' };
  return null;
}

/** Fill what a follow-up leaves out from the earlier questions of the conversation (latest first). */
export function resolveFollowUp(current: QuestionFrame, earlier: readonly QuestionFrame[]): QuestionFrame {
  const out = { ...current };
  for (let i = earlier.length - 1; i >= 0; i--) {
    const prev = earlier[i]!;
    if (!out.metric && !out.item && (prev.metric || prev.item)) {
      out.metric = prev.metric;
      out.item = prev.item;
      if (!/\b(change|growth)\b|变化|增长/.test(current.text)) out.change = out.change || prev.change;
    }
    if (out.years.length === 0 && prev.years.length > 0) out.years = prev.years;
    if (!out.unit && prev.unit) out.unit = prev.unit;
    if (!out.statement && prev.statement && !current.metric && !current.item) out.statement = prev.statement;
  }
  return out;
}
