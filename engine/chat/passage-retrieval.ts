import type { KeyRecord } from '../api/context.js';
import type { Library } from '../store/library.js';
import { tokenizeForSearch } from '../store/library-tokens.js';
import { contentTokens, expandQuery } from './query-expansion.js';

/** A quotable passage (a sentence or two) from a page, scored against the question. */
export interface Passage {
  docId: string;
  fileName: string;
  pageNumber: number;
  text: string;
  score: number;
  /** share of the question's content words the passage contains (0..1) */
  coverage: number;
}

function sentences(text: string): string[] {
  const flat = text.replace(/-\n(?=[a-z])/g, '').replace(/\s*\n\s*/g, ' ');
  return flat
    .split(/(?<=[.!?;。！？；])\s+(?=[A-Z0-9"“(\u3400-\u9fff])|(?<=[。！？；])/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 12 && s.length <= 900);
}

/**
 * Common research questions whose answers a 10-K words differently from the question: customer
 * concentration, acquisitions, employees, competition, risks. A matching sentence gets a boost.
 */
const INTENTS: { question: RegExp; sentence: RegExp; strong?: RegExp; terms: string }[] = [
  {
    question: /\bcustomers?\b|\bclients?\b|客户/i,
    // revenue concentration ("40% of our revenues", "a significant portion of our revenues from") is the answer itself
    strong: /\b(\d+(\.\d+)?%|portion|percent) of (our )?(total |net |consolidated )?(revenues?|net sales|sales)\b|\bcustomers? (accounted|represented) for\b|前[五十]名客户/i,
    sentence: /\b(largest|major|significant|primary) customers?\b|\bgovernment contracts\b|客户/i,
    terms: 'customers revenues portion percent accounted largest government contracts',
  },
  {
    question: /\b(acquired|acquisitions?|acquire|bought|purchased)\b|收购|并购/i,
    // a completed acquisition ("we acquired ...") answers better than a planned one or a mention
    // (case-sensitive: the thing acquired is named right after the verb)
    strong: /\b[Ww]e acquired (all|the remaining|substantially all|[A-Z])|\b[Cc]ompleted (the|our|its) acquisition of [A-Z]|已完成.*收购/,
    sentence: /\bacquisition of\b|\bacquired (all|the remaining|a|an)\b|收购/i,
    terms: 'acquired acquisition acquisitions',
  },
  {
    question: /\b(employees|headcount|workforce|staff)\b|员工|雇员/i,
    sentence: /\b(employ(ed)?|employees)\b.*\b\d[\d,]*\b|员工/i,
    terms: 'employees employed approximately',
  },
  {
    question: /\b(competitors?|competition|compete)\b|竞争/i,
    sentence: /\b(compete|competitors?|competition)\b|竞争/i,
    terms: 'compete competitors competition',
  },
];

/** BM25 over the library (synonyms expanded), then the best sentences of the best pages. */
export function retrievePassages(library: Library, key: KeyRecord, question: string, docIds: readonly string[], limit = 3, nameTerms: readonly string[] = []): Passage[] {
  // the company's own name is on every page of its report: it ranks nothing once the scope is that report
  const names = new Set(nameTerms.flatMap((t) => tokenizeForSearch(t)));
  const ex = expandQuery(question);
  const tokens = ex.tokens.filter((t) => !names.has(t));
  const expanded = ex.expanded.filter((t) => !names.has(t));
  if (tokens.length === 0) return [];
  const intents = INTENTS.filter((i) => i.question.test(question));
  const hits = library.search(key, expanded, { docIds, limit: 8, kind: 'page' });
  if (intents.length > 0) {
    const seen = new Set(hits.map((h) => `${h.docId}#${h.pageNumber}`));
    for (const h of library.search(key, intents.flatMap((i) => tokenizeForSearch(i.terms)), { docIds, limit: 30, kind: 'page' })) {
      if (!seen.has(`${h.docId}#${h.pageNumber}`)) hits.push(h);
    }
  }
  const qset = new Set(tokens.map((t) => stem(t)));
  const expandedSet = new Set(expanded.map((t) => stem(t)));
  const out: Passage[] = [];
  hits.forEach((h, rank) => {
    const page = library.getPage(h.docId, h.pageNumber);
    if (!page) return;
    for (const s of sentences(page.text)) {
      const st = new Set(tokenizeForSearch(s).map((t) => stem(t)));
      let direct = 0;
      let weight = 0;
      for (const q of qset) if (st.has(q)) {
        direct++;
        weight += Math.min(3, q.length / 3);
      }
      let syn = 0;
      for (const q of expandedSet) if (!qset.has(q) && st.has(q)) syn++;
      const intent = intents.some((i) => i.strong?.test(s)) ? 11 : intents.some((i) => i.sentence.test(s)) ? 8 : 0;
      if (direct === 0 && !(syn > 0 && intent > 0)) continue;
      const coverage = Math.max(direct / qset.size, intent ? 0.5 : 0);
      const score = weight + 0.5 * Math.min(3, syn) + coverage * 3 + intent - rank * 0.08 - Math.max(0, s.length - 400) / 400;
      out.push({ docId: h.docId, fileName: h.fileName, pageNumber: h.pageNumber, text: s, score, coverage });
    }
  });
  out.sort((a, b) => b.score - a.score);
  const picked: Passage[] = [];
  for (const p of out) {
    if (picked.some((q) => q.text === p.text)) continue;
    // a list question wants several places, not three sentences of one paragraph
    if (picked.filter((q) => q.docId === p.docId && q.pageNumber === p.pageNumber).length >= 2) continue;
    picked.push(p);
    if (picked.length >= limit) break;
  }
  return picked;
}

function stem(t: string): string {
  return /^[a-z]+$/.test(t) ? t.replace(/(ies|es|s|ed|ing|ion|ions)$/, '') || t : t;
}

export { contentTokens };
