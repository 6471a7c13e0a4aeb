import type { PageLayout } from '../form-layout.js';

const DATE = /\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日|\d{4}[-./]\d{1,2}[-./]\d{1,2}/u;

/** The first date in a text, as printed (spaces inside removed). */
export function firstDate(s: string): string | null {
  const m = DATE.exec(s);
  return m ? m[0].replace(/\s+/g, '') : null;
}

/**
 * Tidies a certificate value: CJK text loses the spaces OCR puts between characters, a parenthesised
 * 法定代表人 note after the organisation type goes, stray separators at the ends go.
 */
export function cleanCertificateValue(field: string, v: string): string {
  let s = v.trim().replace(/^[:：;；,，.。]+/u, '').trim();
  // OCR puts spaces between characters of Chinese text and inside numbers; only spaces between Latin words are kept.
  s = s.replace(/\s+/g, (m, off: number, all: string) => (/[A-Za-z]/.test(all[off - 1] ?? '') && /[A-Za-z]/.test(all[off + m.length] ?? '') ? ' ' : ''));
  // A dash between Chinese characters is the character 一 misread.
  s = s.replace(/(?<=[\u4e00-\u9fff])[-—–－](?=[\u4e00-\u9fff])/gu, '一');
  if (field === '机构类型' || field === '类型') s = s.replace(/\s*[(（]\s*(?:法定代表人|负责人)[^)）]*[)）]?\s*$/u, '');
  if (field === '法定代表人') s = s.split(/\s+/)[0] ?? s;
  return s.trim();
}

/**
 * Searches every token of the page for an identifier of `length` characters (letters and digits; a hyphen
 * before the check character allowed) that `repair` accepts; returns the first.
 */
export function findIdentifier(layout: PageLayout, length: number, repair: (s: string) => string | null, hyphenBeforeCheck = false): string | null {
  for (const row of layout.rows) {
    const text = row.tokens.map((t) => t.text).join(' ');
    for (const m of text.toUpperCase().matchAll(/[0-9A-Z][0-9A-Z\-—－ ]{6,24}[0-9A-Z]/g)) {
      if (hyphenBeforeCheck && !/[\-—－]\s*[0-9X]$/.test(m[0])) continue;
      const compact = m[0].replace(/[\s\-—－]/g, '');
      if (compact.length < length || compact.length > length + 2) continue;
      for (let i = 0; i + length <= compact.length; i++) {
        const r = repair(compact.slice(i, i + length));
        if (r) return r;
      }
    }
  }
  return null;
}
