import type { BBox } from '../core/geometry.js';
import type { PageLayout, Token } from './form-layout.js';
import type { FieldRequest } from './schema-fields.js';
import { discoverPairs, isLabelToken, type KeyValuePair } from './discover-pairs.js';
import { normaliseLabel, similarity } from './field-text.js';
import { findLabelHits } from './label-locator.js';
import { knownLabels, labelCandidates } from './label-synonyms.js';
import { readValue } from './read-value.js';
import { checkedOptions, hasCheckboxes } from './checkbox-value.js';
import { normaliseTypedValue } from './typed-value.js';

/** One place where a requested field's value was found. */
export interface FieldHit {
  value: string;
  raw: string;
  boxes: BBox[];
  labelBox: BBox;
  page: number;
  fromTable: boolean;
  score: number;
}

const FUZZY_MIN = 0.75;

function keyScore(key: string, candidates: string[]): number {
  const k = normaliseLabel(key);
  let best = 0;
  candidates.forEach((c, i) => {
    const exact = i === 0 ? 1 : 0.95;
    if (k === c) best = Math.max(best, exact);
    else {
      if ([...c].length >= 2 && (k.endsWith(c) || k.startsWith(c)) && [...k].length <= [...c].length * 2 + 2) best = Math.max(best, 0.85 * exact);
      best = Math.max(best, similarity(k, c) * 0.95 * exact);
    }
  });
  return best;
}

/**
 * Finds each requested field on the pages: first where one of its labels (the name, its synonyms, the
 * schema's title/description) is printed, reading the value beside or below it; else the discovered
 * key-value pair whose key is closest (fuzzy, at least 0.75). Not found: no hits (the caller writes "").
 */
export function matchFields(layouts: PageLayout[], fields: FieldRequest[]): Map<string, FieldHit[]> {
  const vocab = knownLabels();
  const allCandidates = fields.map((f) => labelCandidates(f.name, f.hints));
  for (const cs of allCandidates) for (const c of cs) vocab.add(c);
  const isLabel = (t: Token): boolean => isLabelToken(t, vocab);
  let pairs: KeyValuePair[] | null = null;
  const out = new Map<string, FieldHit[]>();
  fields.forEach((field, fi) => {
    const candidates = allCandidates[fi]!;
    const hits: FieldHit[] = [];
    for (const layout of layouts) {
      for (const hit of findLabelHits([layout], candidates)) {
        const found = readValue(layout, hit, { multiline: false, isLabel, below: true });
        let value = found.text;
        if (hasCheckboxes(value)) value = checkedOptions(value);
        if (!value) continue;
        hits.push({
          value,
          raw: found.raw,
          boxes: found.boxes,
          labelBox: hit.labelBox,
          page: hit.page,
          fromTable: found.fromTable,
          score: hit.label === candidates[0] ? 1 : 0.95,
        });
      }
    }
    if (hits.length === 0) {
      pairs ??= discoverPairs(layouts);
      for (const p of pairs) {
        const s = keyScore(p.key, candidates);
        if (s >= FUZZY_MIN && p.value) {
          hits.push({ value: p.value, raw: p.raw, boxes: p.valueBoxes, labelBox: p.keyBox, page: p.page, fromTable: p.fromTable, score: s });
        }
      }
    }
    hits.sort((a, b) => b.score - a.score || a.page - b.page || a.labelBox[1] - b.labelBox[1]);
    out.set(
      field.name,
      hits.map((h) => ({ ...h, value: normaliseTypedValue(h.value, field) })),
    );
  });
  return out;
}
