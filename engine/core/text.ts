/** Text normalisation shared by every reader: NFKC, collapsed spaces, no control characters. */
export function normalizeText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.normalize('NFKC').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').replace(/[ \t\u00a0]+/g, ' ');
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
export function isCjk(ch: string): boolean {
  return CJK.test(ch);
}

/** Share of CJK characters among the letters of s (0..1). */
export function cjkRatio(s: string): number {
  let cjk = 0;
  let letters = 0;
  for (const ch of s) {
    if (/\s/.test(ch)) continue;
    letters++;
    if (CJK.test(ch)) cjk++;
  }
  return letters === 0 ? 0 : cjk / letters;
}
