import { createRequire } from 'node:module';
import type { Jieba as JiebaType } from '@node-rs/jieba';

/**
 * Search tokens for the library index. Chinese runs are cut by jieba (search mode, so that both
 * 营业收入 and 营业/收入 match); Latin words are lower-cased; numbers lose their thousands separators.
 * The same function tokenises stored text and queries, so both sides always agree.
 */
const require = createRequire(import.meta.url);
let jieba: JiebaType | null = null;
function cutter(): JiebaType {
  if (!jieba) {
    const { Jieba } = require('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    jieba = Jieba.withDict(dict);
  }
  return jieba;
}

const CJK_RUN = /[\u3400-\u9fff\uf900-\ufaff]+/g;

export function tokenizeForSearch(text: string): string[] {
  const out: string[] = [];
  const s = text.normalize('NFKC');
  let last = 0;
  for (const m of s.matchAll(CJK_RUN)) {
    latinTokens(s.slice(last, m.index), out);
    for (const w of cutter().cutForSearch(m[0], true)) {
      const t = w.trim();
      if (t) out.push(t);
    }
    last = (m.index ?? 0) + m[0].length;
  }
  latinTokens(s.slice(last), out);
  return out;
}

function latinTokens(s: string, out: string[]): void {
  for (const m of s.toLowerCase().matchAll(/[a-z][a-z0-9&'\-]*|\d[\d,]*(?:\.\d+)?/g)) {
    let t = m[0];
    if (/^\d/.test(t)) t = t.replace(/,/g, '');
    else t = t.replace(/['\-&]+$/g, '').replace(/'s$/, '');
    if (t) out.push(t);
  }
}

/** An FTS5 MATCH expression: any of the tokens (BM25 ranks pages with more and rarer ones higher). */
export function matchExpression(tokens: readonly string[]): string | null {
  const uniq = [...new Set(tokens.map((t) => t.replace(/"/g, '')).filter((t) => t.length > 0))];
  if (uniq.length === 0) return null;
  return uniq.map((t) => `"${t}"`).join(' OR ');
}
