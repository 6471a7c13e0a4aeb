import { DocError } from '../core/errors.js';

/** A field the caller asks for: its name, JSON type and any description that hints at the printed label. */
export interface FieldRequest {
  name: string;
  type: string;
  format?: string;
  hints: string[];
}

/**
 * The fields of a JSON schema when it is "valid and non-empty" (ARCHITECTURE.md): an object whose `type`,
 * if given, is "object" and whose `properties` name at least one field. Anything else gives null.
 */
export function schemaFields(schema: unknown): FieldRequest[] | null {
  let s = schema;
  if (typeof s === 'string') {
    try {
      s = JSON.parse(s) as unknown;
    } catch {
      throw new DocError('INVALID_PARAMETER', 'json_schema is not valid JSON');
    }
  }
  if (!s || typeof s !== 'object' || Array.isArray(s)) return null;
  const o = s as Record<string, unknown>;
  if (o.type !== undefined && o.type !== 'object') return null;
  const props = o.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return null;
  const out: FieldRequest[] = [];
  for (const [name, def] of Object.entries(props as Record<string, unknown>)) {
    if (!name.trim()) continue;
    const d = def && typeof def === 'object' && !Array.isArray(def) ? (def as Record<string, unknown>) : {};
    const type = typeof d.type === 'string' ? d.type : 'string';
    const hints = [d.title, d.description].filter((x): x is string => typeof x === 'string' && x.trim().length > 0 && x.length <= 20);
    out.push({ name, type, ...(typeof d.format === 'string' ? { format: d.format } : {}), hints });
  }
  return out.length > 0 ? out : null;
}
