import { normalizeText } from '../core/text.js';

/** A label as compared: NFKC, no whitespace, no trailing colon or bracketed hints, lower case. */
export function normaliseLabel(s: string): string {
  return normalizeText(s)
    .replace(/\s+/g, '')
    .replace(/[：:]+$/u, '')
    .replace(/^[\d]+[.、)）]/u, '')
    .replace(/[*＊_·•]/g, '')
    .toLowerCase();
}

/** A value as returned: NFKC, collapsed spaces, no leading colon or separator. */
export function cleanValue(s: string): string {
  return normalizeText(s)
    .replace(/^[\s:：;；,，、|]+/u, '')
    .replace(/[\s|]+$/u, '')
    .trim();
}

/** Levenshtein distance on code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  if (x.length === 0) return y.length;
  if (y.length === 0) return x.length;
  let prev = new Array<number>(y.length + 1);
  let cur = new Array<number>(y.length + 1);
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

/** 1 for equal strings, 0 for nothing in common (normalised edit distance). */
export function similarity(a: string, b: string): number {
  const n = Math.max([...a].length, [...b].length);
  return n === 0 ? 1 : 1 - editDistance(a, b) / n;
}
