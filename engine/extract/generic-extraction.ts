import type { ExtractItem, FlashHit, FlashItem } from '../core/results.js';
import type { DocumentPages } from '../core/page.js';
import { bboxUnion, roundBBox } from '../core/geometry.js';
import { layoutDocument } from './form-layout.js';
import { discoverPairs } from './discover-pairs.js';
import { matchFields } from './match-fields.js';
import type { FieldRequest } from './schema-fields.js';

/**
 * A pair worth reporting: a key with at least two letters (or one CJK character), a value with a letter or
 * digit that is not itself a label ("FAX #") nor a printed instruction in brackets ("(Name)").
 */
function plausiblePair(key: string, value: string): boolean {
  if ((key.match(/\p{L}/gu) ?? []).length < 2 && !/[\u4e00-\u9fff]/u.test(key)) return false;
  if (!/[\p{L}\p{N}]/u.test(value)) return false;
  if (/#$/.test(value.trim())) return false;
  if (/^[(（][^()（）\d]*[)）]$/u.test(value.trim())) return false;
  return true;
}

/** Open extraction: every key-value pair found, keys in reading order (a repeated key gets a _2, _3 suffix). */
export function extractOpen(doc: DocumentPages): ExtractItem {
  const pairs = discoverPairs(layoutDocument(doc));
  const fields: Record<string, string> = {};
  const keys: string[] = [];
  for (const p of pairs) {
    // Dot leaders and underscores printed after a value are not part of it.
    const value = p.value.replace(/(?:\s*[._·…]){2,}\s*$/u, '').replace(/\s+_+$/u, '').trim();
    if (!p.key || !value || !plausiblePair(p.key, value)) continue;
    let key = p.key;
    if (key in fields) {
      if (fields[key] === value) continue;
      let n = 2;
      while (`${p.key}_${n}` in fields) n++;
      key = `${p.key}_${n}`;
    }
    fields[key] = value;
    keys.push(key);
  }
  return { page_count: doc.pages.length, key_index: keys, extracted_fields: fields };
}

/** Closed extraction: exactly the requested fields, "" where a field is not on the document. */
export function extractClosed(doc: DocumentPages, fields: FieldRequest[]): ExtractItem {
  const found = matchFields(layoutDocument(doc), fields);
  const out: Record<string, string> = {};
  for (const f of fields) out[f.name] = found.get(f.name)?.[0]?.value ?? '';
  return { page_count: doc.pages.length, key_index: fields.map((f) => f.name), extracted_fields: out };
}

/** Flash: closed extraction with the place of every hit (label and value box, raw printed text). */
export function extractFlash(doc: DocumentPages, fields: FieldRequest[]): FlashItem {
  const found = matchFields(layoutDocument(doc), fields);
  const out: Record<string, FlashHit[]> = {};
  for (const f of fields) {
    out[f.name] = (found.get(f.name) ?? []).map((h) => {
      const page = doc.pages.find((p) => p.pageNumber === h.page) ?? doc.pages[0]!;
      return {
        bbox: roundBBox(bboxUnion([h.labelBox, ...h.boxes])),
        value: h.raw,
        category: h.fromTable ? 'Table' : 'Text',
        source_page: h.page,
        layout_width: Math.round(page.width),
        layout_height: Math.round(page.height),
      };
    });
  }
  return { page_count: doc.pages.length, extracted_fields: out };
}
