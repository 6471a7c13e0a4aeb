import type { FieldRequest } from './schema-fields.js';

const TRUE_WORDS = /^(?:是|有|对|真|yes|y|true|checked|☑|☒|✓|✔|√|\[x\])$/iu;
const FALSE_WORDS = /^(?:否|无|没有|不是|假|no|n|false|unchecked|☐|□|\[ \])$/iu;

/**
 * Normalises a value only where the schema's type makes the intent clear: numbers lose currency signs and
 * thousands separators, integers keep their digits, booleans become "true"/"false", a `format: date`
 * becomes YYYY-MM-DD. Strings (dates included) stay as printed.
 */
export function normaliseTypedValue(value: string, field: Pick<FieldRequest, 'type' | 'format'>): string {
  const v = value.trim();
  if (field.type === 'number' || field.type === 'integer') {
    const m = /[-+]?\d[\d,，]*(?:\.\d+)?/.exec(v.replace(/\s/g, ''));
    if (!m) return v;
    const n = m[0].replace(/[,，]/g, '');
    return field.type === 'integer' ? String(Math.trunc(Number(n))) : n;
  }
  if (field.type === 'boolean') {
    if (TRUE_WORDS.test(v)) return 'true';
    if (FALSE_WORDS.test(v)) return 'false';
    return v;
  }
  if (field.format === 'date') {
    const m = /(\d{4})\s*[-./年]\s*(\d{1,2})\s*[-./月]\s*(\d{1,2})/.exec(v);
    if (m) return `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  }
  return v;
}
