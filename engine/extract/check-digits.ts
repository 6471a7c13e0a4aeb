/**
 * Check digits of Chinese registration identifiers, and repair of one OCR confusion where the check then passes.
 * GB 32100-2015: 18-character unified social credit code. GB 11714-1997: 8 + 1 organisation code.
 */
const CREDIT_CHARSET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
const ORG_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];

/** Pairs an OCR engine mixes up (either way). */
const CONFUSIONS: Record<string, string[]> = {
  O: ['0'], D: ['0'], '0': ['O'],
  I: ['1'], L: ['1'], '1': ['I'],
  Z: ['2'], '2': ['Z'],
  S: ['5'], '5': ['S'],
  B: ['8'], '8': ['B'],
  G: ['6'], '6': ['G'],
};

export function isValidCreditCode(code: string): boolean {
  if (!/^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CHARSET.indexOf(code[i]!) * CREDIT_WEIGHTS[i]!;
  const c = (31 - (sum % 31)) % 31;
  return CREDIT_CHARSET[c] === code[17];
}

/** Validity of an organisation code written as 8 characters, '-', check (the hyphen optional). */
export function isValidOrgCode(code: string): boolean {
  const m = /^([0-9A-Z]{8})-?([0-9X])$/.exec(code);
  if (!m) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const ch = m[1]![i]!;
    sum += (/\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 55) * ORG_WEIGHTS[i]!;
  }
  const c = 11 - (sum % 11);
  const check = c === 10 ? 'X' : c === 11 ? '0' : String(c);
  return check === m[2];
}

function repair(code: string, valid: (s: string) => boolean, fixed: (s: string) => string): string | null {
  const base = fixed(code);
  if (valid(base)) return base;
  const found = new Set<string>();
  const chars = [...base];
  for (let i = 0; i < chars.length; i++) {
    for (const alt of CONFUSIONS[chars[i]!] ?? []) {
      const cand = [...chars.slice(0, i), alt, ...chars.slice(i + 1)].join('');
      if (valid(cand)) found.add(cand);
    }
  }
  return found.size === 1 ? [...found][0]! : null;
}

/**
 * A credit code as printed, checked: returns it when valid, else the single repair of one confused character
 * that makes it valid, else null.
 */
export function repairCreditCode(text: string): string | null {
  const s = text.toUpperCase().replace(/[\s-]/g, '');
  if (s.length !== 18) return null;
  // Letters that the code's alphabet leaves out are always misreadings of digits.
  return repair(s, isValidCreditCode, (x) => x.replace(/O/g, '0').replace(/I/g, '1').replace(/Z/g, '2').replace(/S/g, '5').replace(/V/g, 'U'));
}

/** An organisation code, checked and repaired the same way; returned as XXXXXXXX-C. */
export function repairOrgCode(text: string): string | null {
  const s = text.toUpperCase().replace(/[\s\-—－_.·]/g, '');
  if (s.length !== 9) return null;
  const out = repair(s, (x) => isValidOrgCode(x), (x) => x);
  return out ? `${out.slice(0, 8)}-${out.slice(8)}` : null;
}
