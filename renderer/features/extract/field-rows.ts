import type { BBox, EmrItem, ExtractItem, FlashItem, ParseBlock, ParseResult, TemplatePageItem } from '../../api/types.js';
import { isFailedEntry } from '../viewer/task-result.js';

export interface FieldValue {
  value: string;
  page?: number;
  bbox?: BBox;
  layoutWidth?: number;
  layoutHeight?: number;
}

export interface FieldRow {
  name: string;
  values: FieldValue[];
}

export type TemplateKind = 'licence' | 'certificate' | 'record' | 'generic';

export function templateOf(mode: string): TemplateKind {
  if (mode === 'bl-extract') return 'licence';
  if (mode === 'occ-extract') return 'certificate';
  if (mode === 'emr-extract') return 'record';
  return 'generic';
}

/** Every extract mode's results as one list of fields with their values (and boxes where the mode gives them). */
export function fieldRowsOf(mode: string, results: unknown[]): FieldRow[] {
  const rows = new Map<string, FieldRow>();
  const add = (name: string, v: FieldValue) => {
    let row = rows.get(name);
    if (!row) rows.set(name, (row = { name, values: [] }));
    if (v.value !== '' || row.values.length === 0) row.values.push(v);
  };
  for (const item of results) {
    if (!item || isFailedEntry(item)) continue;
    if (mode === 'docai-extract-flash') {
      for (const [name, hits] of Object.entries((item as FlashItem).extracted_fields ?? {})) {
        if (hits.length === 0) add(name, { value: '' });
        for (const h of hits) add(name, { value: h.value, page: h.source_page, bbox: h.bbox, layoutWidth: h.layout_width, layoutHeight: h.layout_height });
      }
    } else if (mode === 'bl-extract' || mode === 'occ-extract') {
      const page = item as TemplatePageItem;
      for (const d of page.extract_data ?? [])
        for (const name of d.key_index ?? Object.keys(d.extracted_fields)) add(name, { value: d.extracted_fields[name] ?? '', page: page.page_number });
    } else if (mode === 'emr-extract') {
      for (const [name, hits] of Object.entries(item as EmrItem)) {
        if (!Array.isArray(hits)) continue;
        if (hits.length === 0) add(name, { value: '' });
        for (const h of hits) add(name, { value: h.value });
      }
    } else {
      const it = item as ExtractItem;
      for (const name of it.key_index ?? Object.keys(it.extracted_fields ?? {})) add(name, { value: it.extracted_fields?.[name] ?? '' });
    }
  }
  return [...rows.values()];
}

/**
 * CJK Radicals Supplement characters that some PDF fonts map common ideographs to; NFKC leaves them alone.
 * Folded for matching only.
 */
const RADICALS: Record<string, string> = { '⺠': '民', '⻓': '长', '⻔': '门', '⻢': '马', '⻋': '车', '⻅': '见', '⻆': '角', '⻚': '页', '⻜': '飞', '⻝': '食', '⻛': '风', '⻄': '西', '⺟': '母', '⻘': '青', '⻨': '麦', '⻩': '黄', '⻬': '齐', '⻮': '齿', '⻰': '龙', '⻳': '龟' };
const squash = (s: string) => s.normalize('NFKC').replace(/[\u2e80-\u2eff]/g, (c) => RADICALS[c] ?? c).replace(/\s+/g, '');

type Prepared = { b: ParseBlock; text: string; area: number };

function centre(p: Prepared): [number, number] {
  const c = p.b.composing_blocks[0]!.coordinates;
  return [(c[0] + c[2]) / 2, (c[1] + c[3]) / 2];
}

/** Among equal candidates, the one nearest a block naming the field (rows weigh more than columns). */
function nearestToLabel(hits: Prepared[], labels: Prepared[]): Prepared | undefined {
  if (hits.length < 2 || labels.length === 0) return hits[0];
  let best: Prepared | undefined;
  let bestD = Infinity;
  for (const h of hits) {
    const [hx, hy] = centre(h);
    for (const l of labels) {
      if (l.b.page_number !== h.b.page_number) continue;
      const [lx, ly] = centre(l);
      const d = Math.abs(hy - ly) * 3 + Math.abs(hx - lx);
      if (d < bestD) [best, bestD] = [h, d];
    }
  }
  return best ?? hits[0];
}

/**
 * Give box-less values a box: the smallest block of a lite parse of the same file whose text contains the
 * value (or, for long values, the block that contains its first 12 characters).
 */
export function linkValuesToBlocks(rows: FieldRow[], locator: ParseResult | undefined): FieldRow[] {
  const blocks = locator?.blocks ?? [];
  if (blocks.length === 0) return rows;
  const prepared = blocks.map((b) => ({ b, text: squash(b.text), area: b.composing_blocks.reduce((a, c) => a + (c.coordinates[2] - c.coordinates[0]) * (c.coordinates[3] - c.coordinates[1]), 0) }));
  return rows.map((row) => ({
    ...row,
    values: row.values.map((v) => {
      if (v.bbox || !v.value.trim()) return v;
      const needle = squash(v.value);
      const probe = needle.length > 24 ? needle.slice(0, 12) : needle;
      const hits = prepared.filter((p) => p.text.includes(probe) && (v.page === undefined || p.b.page_number === v.page)).sort((a, b) => a.area - b.area);
      // the smallest blocks holding the value; when several, the one beside the field's label
      const smallest = hits.filter((h) => h.area <= (hits[0]?.area ?? 0) * 1.5);
      const labels = prepared.filter((p) => p.text.includes(squash(row.name)));
      const best = nearestToLabel(smallest, labels);
      const cb = best?.b.composing_blocks[0];
      if (!best || !cb) return v;
      return { ...v, page: cb.page_number, bbox: cb.coordinates, layoutWidth: cb.layout_width, layoutHeight: cb.layout_height };
    }),
  }));
}
