import { cjkRatio, isCjk, normalizeText } from '../../core/text.js';

const PUNCT = /[\p{P}\p{S}]/u;

/** Two characters that Chinese sets without a space: CJK-CJK, or CJK next to punctuation. */
function chineseJoint(a: string, b: string): boolean {
  const ca = isCjk(a);
  const cb = isCjk(b);
  return (ca && cb) || (ca && PUNCT.test(b)) || (cb && PUNCT.test(a));
}

/**
 * Text of one recognised line as the page model wants it: NFKC, single spaces between words,
 * no spaces between two CJK characters or between CJK and punctuation (Chinese is written without them).
 */
export function tidyLineText(raw: string): string {
  const s = normalizeText(raw).trim();
  const chars = [...s];
  // In a Chinese line, a space between two punctuation marks (”, or : “) is the recogniser's, not the author's.
  const chinese = cjkRatio(s) > 0.3;
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === ' ') {
      const prev = out[out.length - 1] ?? '';
      const next = chars[i + 1] ?? '';
      if (prev === ' ' || chineseJoint(prev, next) || (chinese && PUNCT.test(prev) && PUNCT.test(next))) continue;
    }
    out += c;
  }
  return out;
}
