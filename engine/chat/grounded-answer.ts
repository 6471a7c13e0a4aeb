import type { KeyRecord } from '../api/context.js';
import type { Library } from '../store/library.js';
import { nameTerms, scopeDocuments } from './document-scope.js';
import { growthPercent, METRIC_BY_ID, type MetricDef, type MetricResult } from './financial-metrics.js';
import type { LineItem } from './line-items.js';
import { formatAmount, formatFixed, requestedDecimals } from './number-format.js';
import { retrievePassages } from './passage-retrieval.js';
import { readQuestion, resolveFollowUp, type QuestionFrame } from './question-frame.js';
import { StatementLookup, type FoundValue } from './statement-lookup.js';

/**
 * The default answerer (no language model): reads the statements for numeric questions and
 * computes metrics with the formula shown; quotes the best passages otherwise; says plainly when
 * the documents do not hold the answer. Every number and quote carries its citation.
 */
export interface Citation {
  docId: string;
  fileName: string;
  pageNumber: number;
}

export interface EvidenceItem {
  citation: Citation;
  quote: string;
}

export interface GroundedAnswer {
  text: string;
  lang: 'en' | 'zh';
  citations: Citation[];
  evidence: EvidenceItem[];
  /** computed figures (metric, formula, values) handed to a language model as facts */
  facts: string[];
  found: boolean;
}

export interface ConversationTurn {
  role: string;
  content: string;
}

interface Preferences {
  lang: 'en' | 'zh' | null;
  brief: boolean;
}

function readSystem(messages: readonly ConversationTurn[]): Preferences {
  const sys = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n');
  let lang: 'en' | 'zh' | null = null;
  if (/in chinese|用中文|中文回答|使用中文/i.test(sys)) lang = 'zh';
  else if (/in english|用英文|英文回答/i.test(sys)) lang = 'en';
  const brief = /\b(brief|concise|short|one sentence|only the (number|answer))\b|简洁|简短|只(给|回答)/i.test(sys);
  return { lang, brief };
}

export function answerGrounded(library: Library, key: KeyRecord, messages: readonly ConversationTurn[]): GroundedAnswer {
  const prefs = readSystem(messages);
  const userTurns = messages.filter((m) => m.role === 'user').map((m) => m.content);
  const question = userTurns[userTurns.length - 1] ?? '';
  const earlier = userTurns.slice(0, -1).map(readQuestion);
  const frame = resolveFollowUp(readQuestion(question), earlier);
  const lang = prefs.lang ?? frame.lang;
  const scope = scopeDocuments(library, key, userTurns);
  const docIds = scope.docs.map((d) => d.docId);
  if (docIds.length === 0) return notFound(lang, frame, library.listDocuments(key).length === 0 ? 'empty' : 'text');
  if (!scope.named) {
    // a company or name the question gives that no document mentions at all: the answer is not here
    const unknown = nameTerms(question, true).filter((t) => library.search(key, [t], { limit: 1 }).length === 0);
    if (unknown.length > 0) return notFound(lang, frame, 'name', unknown);
  }

  if (frame.metric || frame.item) {
    const numeric = answerNumeric(library, key, docIds, frame, lang, prefs.brief);
    if (numeric) return numeric;
  }
  const passages = retrievePassages(library, key, question, docIds, prefs.brief ? 1 : 3, scope.named ? userTurns.flatMap((t) => nameTerms(t)) : []);
  const good = passages.filter((p) => p.coverage >= 0.34 || p.score >= 6);
  if (good.length === 0) return notFound(lang, frame, frame.metric || frame.item ? 'figure' : 'text');
  const citations: Citation[] = [];
  const lines: string[] = [lang === 'zh' ? '根据您的文档：' : 'From your documents:'];
  for (const p of good) {
    const n = cite(citations, p);
    lines.push(`> ${p.text} — ${p.fileName}, ${lang === 'zh' ? `第 ${p.pageNumber} 页` : `p. ${p.pageNumber}`} [${n}]`);
  }
  return {
    text: lines.join('\n'),
    lang,
    citations,
    evidence: good.map((p) => ({ citation: { docId: p.docId, fileName: p.fileName, pageNumber: p.pageNumber }, quote: p.text })),
    facts: [],
    found: true,
  };
}

function cite(citations: Citation[], c: Citation): number {
  const i = citations.findIndex((x) => x.docId === c.docId && x.pageNumber === c.pageNumber);
  if (i >= 0) return i + 1;
  citations.push({ docId: c.docId, fileName: c.fileName, pageNumber: c.pageNumber });
  return citations.length;
}

function notFound(lang: 'en' | 'zh', frame: QuestionFrame, why: 'empty' | 'figure' | 'text' | 'name', names: string[] = []): GroundedAnswer {
  const what = frame.metric ? (lang === 'zh' ? frame.metric.zh : frame.metric.en) : frame.item ? (lang === 'zh' ? frame.item.zh : frame.item.en) : null;
  const years = frame.years.length ? ` (${frame.years.map((y) => `FY${y}`).join(', ')})` : '';
  let text: string;
  if (why === 'name') {
    const list = names.map((n) => `"${n}"`).join(', ');
    text = lang === 'zh' ? `您的文档中没有关于 ${list} 的内容。` : `Not in your documents: none of your documents mentions ${list}.`;
    return { text, lang, citations: [], evidence: [], facts: [], found: false };
  }
  if (lang === 'zh') {
    text = why === 'empty' ? '您的文档库中还没有文档，请先上传或解析文档。' : `您的文档中没有找到${what ? `“${what}”${years}` : '回答这个问题的内容'}。`;
  } else {
    text = why === 'empty' ? 'Not in your documents: your library has no documents yet. Parse or upload some first.' : `Not in your documents: I found no ${what ? `${what}${years}` : 'passage that answers this'} in the documents you have.`;
  }
  return { text, lang, citations: [], evidence: [], facts: [], found: false };
}

interface Display {
  scale: number;
  unitWord: string;
  currency: string;
}

function displayFor(frame: QuestionFrame, sample: FoundValue, lang: 'en' | 'zh'): Display {
  const zhUnit = sample.page.unitLabel && /[\u3400-\u9fff]/.test(sample.page.unitLabel);
  if (frame.unit) return { scale: frame.unit.scale, unitWord: frame.unit.label, currency: /[\u3400-\u9fff]/.test(frame.unit.label) ? '' : '$' };
  if (zhUnit) return { scale: sample.page.unitScale, unitWord: sample.page.unitLabel!, currency: '' };
  const words: Record<number, string> = { 1e9: 'billion', 1e6: 'million', 1e3: 'thousand', 1: '' };
  return { scale: sample.page.unitScale, unitWord: words[sample.page.unitScale] ?? '', currency: lang === 'zh' ? '' : '$' };
}

function money(v: number, d: Display): string {
  const n = formatAmount(v / d.scale, 2);
  if (/[\u3400-\u9fff]/.test(d.unitWord)) return `${n} ${d.unitWord}`;
  return `${v < 0 ? '-' : ''}${d.currency}${formatAmount(Math.abs(v) / d.scale, 2)}${d.unitWord ? ` ${d.unitWord}` : ''}`.replace(/^-?\$-/, '-$');
}

function metricValue(m: MetricDef, r: MetricResult, decimals: number | null): string {
  switch (m.kind) {
    case 'percent':
      return `${formatFixed(r.value, decimals ?? 1)}%`;
    case 'days':
      return `${formatFixed(r.value, decimals ?? 2)} days`;
    case 'times':
      return `${formatFixed(r.value, decimals ?? 2)}x`;
    case 'ratio':
      return formatFixed(r.value, decimals ?? 2);
    case 'amount':
      return formatAmount(r.value, decimals ?? 2);
  }
}

function answerNumeric(library: Library, key: KeyRecord, docIds: string[], frame: QuestionFrame, lang: 'en' | 'zh', brief: boolean): GroundedAnswer | null {
  const lookup = new StatementLookup(library, key, docIds, frame.statement);
  const primaryId = frame.metric ? frame.metric.items[0]! : frame.item!.id;
  const available = lookup.yearsOf(primaryId);
  let years = [...frame.years].sort((a, b) => b - a);
  if (years.length === 0) years = available.slice(0, 1);
  if (years.length === 0) return null;
  const year = years[0]!;
  const compare = frame.change || frame.yesNo;
  const prior = years.length > 1 ? years[years.length - 1]! : year - 1;
  const decimals = requestedDecimals(frame.text);
  const getter = (id: string, y: number): number | null => {
    const f = lookup.get(id, y);
    if (f) return f.value;
    if (id === 'gross_profit') {
      const r = METRIC_BY_ID.get('gross_profit_derived')!.compute((i, yy) => lookup.get(i, yy)?.value ?? null, y, (v) => String(v));
      return r ? r.value : null;
    }
    return null;
  };

  let headline: string;
  const formulaLines: string[] = [];
  const facts: string[] = [];
  if (frame.metric) {
    const m = frame.metric;
    const first = m.items.map((id) => lookup.get(id, year)).find((f): f is FoundValue => f !== null);
    if (!first) return null;
    const disp = displayFor(frame, first, lang);
    const fmt = (v: number): string => formatAmount(v / disp.scale, 2);
    const now = m.compute(getter, year, fmt);
    if (!now) return null;
    const name = lang === 'zh' ? m.zh : m.en;
    const valueText = m.kind === 'amount' ? money(now.value, disp) : metricValue(m, now, decimals);
    if (compare) {
      const before = m.compute(getter, prior, fmt);
      if (before) {
        const beforeText = m.kind === 'amount' ? money(before.value, disp) : metricValue(m, before, decimals);
        const diff = now.value - before.value;
        const up = diff > 0;
        const diffText = m.kind === 'amount' ? money(Math.abs(diff), disp) : m.kind === 'percent' ? `${formatFixed(Math.abs(Number(now.value.toFixed(decimals ?? 1)) - Number(before.value.toFixed(decimals ?? 1))), decimals ?? 1)} percentage points` : metricValue(m, { ...now, value: Math.abs(diff) }, decimals);
        const verdict = frame.yesNo && frame.direction ? ((frame.direction === 'up') === up ? (lang === 'zh' ? '是。' : 'Yes. ') : lang === 'zh' ? '否。' : 'No. ') : '';
        headline =
          lang === 'zh'
            ? `${verdict}${name}从 FY${prior} 的 ${beforeText}${up ? '上升' : '下降'}至 FY${year} 的 ${valueText}（${up ? '增加' : '减少'} ${diffText}）。`
            : `${verdict}${cap(name)} ${up ? 'increased' : 'decreased'} from ${beforeText} in FY${prior} to ${valueText} in FY${year} (${up ? 'up' : 'down'} ${diffText}).`;
        formulaLines.push(`${lang === 'zh' ? '公式' : 'Formula'}: ${now.formula}`);
        formulaLines.push(`FY${year}: ${now.worked} = ${valueText}`);
        formulaLines.push(`FY${prior}: ${before.worked} = ${beforeText}`);
        facts.push(`${m.en} FY${year} = ${valueText}`, `${m.en} FY${prior} = ${beforeText}`);
      } else {
        headline = lang === 'zh' ? `FY${year} ${name}为 ${valueText}。` : `${cap(name)} for FY${year}: ${valueText}.`;
        formulaLines.push(`${lang === 'zh' ? '公式' : 'Formula'}: ${now.formula} = ${now.worked} = ${valueText}`);
        facts.push(`${m.en} FY${year} = ${valueText}`);
      }
    } else {
      headline = lang === 'zh' ? `FY${year} ${name}为 ${valueText}。` : `${cap(name)} for FY${year}: ${valueText}.`;
      formulaLines.push(`${lang === 'zh' ? '公式' : 'Formula'}: ${now.formula} = ${now.worked} = ${valueText}`);
      facts.push(`${m.en} FY${year} = ${valueText} (formula: ${now.formula} = ${now.worked})`);
    }
  } else {
    const item = frame.item as LineItem;
    const now = lookup.get(item.id, year);
    if (!now) return null;
    const disp = displayFor(frame, now, lang);
    const show = (f: FoundValue): string => (item.scaled ? money(item.id === 'capex' || item.id === 'dividends' ? Math.abs(f.value) : f.value, disp) : formatAmount(f.value, 2));
    const name = lang === 'zh' ? item.zh : item.en;
    const before = compare ? lookup.get(item.id, prior) : null;
    if (before) {
      const g = growthPercent(before.value, now.value);
      const up = now.value > before.value;
      const gText = g === null ? '' : `${formatFixed(Math.abs(g), decimals ?? 1)}%`;
      const verdict = frame.yesNo && frame.direction ? ((frame.direction === 'up') === up ? (lang === 'zh' ? '是。' : 'Yes. ') : lang === 'zh' ? '否。' : 'No. ') : '';
      headline =
        lang === 'zh'
          ? `${verdict}${name}从 FY${prior} 的 ${show(before)}${up ? '增长' : '下降'} ${gText} 至 FY${year} 的 ${show(now)}。`
          : `${verdict}${cap(name)} ${up ? 'grew' : 'declined'} ${gText} year over year, from ${show(before)} in FY${prior} to ${show(now)} in FY${year}.`;
      formulaLines.push(`${lang === 'zh' ? '公式' : 'Formula'}: (${formatAmount(now.value / disp.scale)} − ${formatAmount(before.value / disp.scale)}) / ${formatAmount(Math.abs(before.value) / disp.scale)} × 100% = ${g === null ? 'n/a' : `${formatFixed(g, decimals ?? 1)}%`}`);
      facts.push(`${item.en} FY${prior} = ${show(before)}`, `${item.en} FY${year} = ${show(now)}`, `growth = ${g === null ? 'n/a' : `${formatFixed(g, decimals ?? 1)}%`}`);
    } else {
      headline = lang === 'zh' ? `FY${year} ${name}为 ${show(now)}。` : `${cap(name)} for FY${year}: ${show(now)}.`;
      facts.push(`${item.en} FY${year} = ${show(now)}`);
    }
  }

  const citations: Citation[] = [];
  const evidence: EvidenceItem[] = [];
  const quoteLines: string[] = [];
  for (const f of lookup.used) {
    const c = { docId: f.page.docId, fileName: f.page.fileName, pageNumber: f.page.pageNumber };
    const n = cite(citations, c);
    const quote = f.row.text.replace(/\s{2,}/g, ' ');
    if (evidence.some((e) => e.quote === quote && e.citation.pageNumber === c.pageNumber)) continue;
    evidence.push({ citation: c, quote });
    const unit = f.page.unitLabel && f.row.scaled ? (lang === 'zh' ? `，单位：${f.page.unitLabel}` : `, in ${f.page.unitLabel}`) : '';
    quoteLines.push(`> "${quote}" — ${c.fileName}, ${lang === 'zh' ? `第 ${c.pageNumber} 页` : `p. ${c.pageNumber}`}${unit} [${n}]`);
  }
  const marks = citations.map((_, i) => `[${i + 1}]`).join('');
  const parts = [`${headline} ${marks}`];
  if (!brief) parts.push(...formulaLines, ...quoteLines);
  return { text: parts.join('\n'), lang, citations, evidence, facts: [...facts, ...formulaLines], found: true };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}


