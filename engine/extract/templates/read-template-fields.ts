import type { BBox } from '../../core/geometry.js';
import type { PageLayout, Token } from '../form-layout.js';
import { labelPrefixEnd, findLabelHits } from '../label-locator.js';
import { normaliseLabel } from '../field-text.js';
import { readValue } from '../read-value.js';
import { assignValues } from './assign-values.js';

/** A fixed field of a certificate template and the labels it is printed under. */
export interface TemplateField {
  name: string;
  labels: string[];
  multiline: boolean;
  maxLines?: number;
  /** What a value of this field looks like; a label whose value does not fit is passed over. */
  accept?: RegExp;
}

export interface TemplateValue {
  value: string;
  boxes: BBox[];
}

/**
 * Reads a certificate's fields by geometry: each label (spaced out or not), its value to the right, wrapped
 * lines below in the value's column, up to the next label (of any field, or one of `stopLabels`).
 */
export function readTemplateFields(layout: PageLayout, fields: TemplateField[], stopLabels: string[]): Map<string, TemplateValue> {
  const assigned = assignValues(layout, fields, stopLabels);
  const beside = readBeside(layout, fields, stopLabels);
  for (const f of fields) if (!assigned.has(f.name) && beside.has(f.name)) assigned.set(f.name, beside.get(f.name)!);
  return assigned;
}

function readBeside(layout: PageLayout, fields: TemplateField[], stopLabels: string[]): Map<string, TemplateValue> {
  const every = [...fields.flatMap((f) => f.labels), ...stopLabels].map(normaliseLabel);
  const isLabel = (t: Token): boolean => every.some((l) => labelPrefixEnd(t.text, l) >= 0);
  const out = new Map<string, TemplateValue>();
  const hitsByField = fields.map((f) => findLabelHits([layout], f.labels.map(normaliseLabel)));
  // A label claimed by a longer field label at the same place (类型 inside 机构类型) belongs to that field.
  const claimed = new Set<string>();
  fields.forEach((f, i) => {
    const hits = hitsByField[i]!;
    for (const hit of hits) {
      const key = `${hit.rowIndex}:${hit.first}`;
      const longer = hitsByField.some((hs, j) => j !== i && hs.some((h) => h.rowIndex === hit.rowIndex && h.first === hit.first && [...h.label].length > [...hit.label].length));
      if (longer || claimed.has(key + f.name)) continue;
      const found = readValue(layout, hit, { multiline: f.multiline, maxLines: f.maxLines ?? 12, isLabel, below: true });
      if (!found.text || (f.accept && !f.accept.test(found.text.replace(/\s+/g, '')))) continue;
      claimed.add(key + f.name);
      out.set(f.name, { value: found.text, boxes: found.boxes });
      break;
    }
  });
  return out;
}

/** All text of a page in reading order, one row a line. */
export function pageText(layout: PageLayout): string {
  return layout.rows.map((r) => r.tokens.map((t) => t.text).join(' ')).join('\n');
}
