import type { KeyRecord, LibraryDocument } from '../api/context.js';
import type { Library } from '../store/library.js';

/**
 * Which of the key's documents a question is about: the company or document it names, matched
 * against file names and the documents' first pages. When it names none, every document is in scope.
 */
const NOT_NAMES = new Set(
  `what which when where who whom whose how why does did has have had is was were are can could will would should the and for from with
  using use based base give answer round calculate compute according fy fiscal year years total net gross operating income revenue revenues sales
  balance sheet statement statements cash flow flows assets liabilities usd us dollars million millions billion billions thousand percent
  ccc dio dso dpo cogs eps roa roe capex pp&e ppe gaap non-gaap ebit ebitda yes no if then state explain address q1 q2 q3 q4 january february
  march april may june july august september october november december report annual form 10-k 10k 10-q company companies inc corp corporation
  ltd co plc group holdings it its this that these those they their there here in on of by to at as or an a be
  please tell show list name main three two one first primary primarily relying shown details information line items within only clearly`
    .split(/\s+/)
    .filter(Boolean),
);

const GENERIC_ZH = /年度报告|年报|报告|公司|股份|有限|集团|摘要|全文|财务|报表/g;

export interface DocumentScope {
  docs: LibraryDocument[];
  /** the question (or an earlier one) named these documents */
  named: boolean;
}

const leadingCache = new Map<string, string>();

function leadingText(library: Library, docId: string): string {
  let t = leadingCache.get(docId);
  if (t === undefined) {
    t = library.leadingText(docId, 3).toLowerCase();
    if (leadingCache.size > 500) leadingCache.clear();
    leadingCache.set(docId, t);
  }
  return t;
}

/**
 * Capitalised words that may name a company or document. `sure`: leave out a sentence's first word
 * unless it is clearly a name (possessive, digits or inner capitals: "Boeing's", "3M", "IBM"), since any
 * word is capitalised there ("Summarize ...").
 */
export function nameTerms(question: string, sure = false): string[] {
  const terms: string[] = [];
  for (const m of question.matchAll(/\b\d?[A-Z][A-Za-z0-9&'’.-]{0,}(?:\s+\d?[A-Z][A-Za-z0-9&'’.-]+)*/g)) {
    const start = m.index ?? 0;
    const sentenceStart = /^\s*$|[.?!:;]\s*$/.test(question.slice(0, start));
    m[0].split(/\s+/).forEach((w, k) => {
      const possessive = /['’]s$/.test(w);
      const clean = w.replace(/['’]s$/, '').replace(/[.'’-]+$/, '');
      if (clean.length < 2 || NOT_NAMES.has(clean.toLowerCase()) || /^(FY)?\d+$|^FY\d/.test(clean) || /^(19|20)\d\d$/.test(clean)) return;
      if (sure && k === 0 && sentenceStart && !possessive && !/\d|.[A-Z]/.test(clean)) return;
      terms.push(clean.toLowerCase());
    });
  }
  return [...new Set(terms)];
}

function scoreDocument(library: Library, doc: LibraryDocument, question: string, terms: string[]): number {
  const file = doc.fileName.toLowerCase();
  let score = 0;
  for (const t of terms) {
    const re = new RegExp(`(^|[^a-z0-9])${t.replace(/[.*+?^${}()|[\]\\&]/g, '\\$&')}([^a-z0-9]|$)`);
    if (re.test(file)) score += 3;
    else if (re.test(leadingText(library, doc.docId))) score += 1;
  }
  // Chinese names: a run of the file name (without generic words) that the question contains
  for (const run of doc.fileName.replace(GENERIC_ZH, ' ').match(/[\u3400-\u9fff]{2,}/g) ?? []) {
    if (question.includes(run)) score += 3;
    else if (run.length >= 4 && question.includes(run.slice(0, 4))) score += 2;
  }
  return score;
}

export function scopeDocuments(library: Library, key: KeyRecord, questions: readonly string[]): DocumentScope {
  const docs = library.listDocuments(key);
  // latest question first: a follow-up without a name inherits the earlier one's
  for (let i = questions.length - 1; i >= 0; i--) {
    const q = questions[i]!;
    const terms = nameTerms(q);
    const scored = docs.map((d) => ({ d, s: scoreDocument(library, d, q, terms) })).filter((x) => x.s > 0);
    if (scored.length > 0) {
      const best = Math.max(...scored.map((x) => x.s));
      return { docs: scored.filter((x) => x.s === best).map((x) => x.d), named: true };
    }
  }
  return { docs, named: false };
}
