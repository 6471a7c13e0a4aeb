import type { BBox } from '../../core/geometry.js';
import { cjkRatio } from '../../core/text.js';
import type { PageLayout } from '../form-layout.js';
import { findLabelHits, type LabelHit } from '../label-locator.js';
import { normaliseLabel } from '../field-text.js';
import type { TemplateField, TemplateValue } from './read-template-fields.js';

interface Piece {
  text: string;
  box: BBox;
}

interface Owner {
  field: string | null; // null: a stop label (its text is read and dropped)
  hit: LabelHit;
  unit: number;
  pieces: Piece[];
}

/**
 * Reads a certificate by giving every text piece to the label it belongs to: the nearest label column to
 * its left whose label is at or above the piece (a value may sit up to a line higher than its label, as
 * on printed certificates filled in by another printer), or the label just above it when the value is
 * printed under the label. Each field's pieces are read in order while they stay contiguous.
 */
export function assignValues(layout: PageLayout, fields: TemplateField[], stopLabels: string[]): Map<string, TemplateValue> {
  const labelField = new Map<string, string | null>();
  for (const s of stopLabels) labelField.set(normaliseLabel(s), null);
  for (const f of fields) for (const l of f.labels) labelField.set(normaliseLabel(l), f.name);
  const hits = findLabelHits([layout], [...labelField.keys()]);
  const owners: Owner[] = hits.map((hit) => {
    const row = layout.rows[hit.rowIndex]!;
    const unit = Math.max(8, Math.min(hit.labelBox[3] - hit.labelBox[1], row.bottom - row.top));
    return { field: labelField.get(hit.label) ?? null, hit, unit, pieces: hit.rest && hit.restBox ? [{ text: hit.rest, box: hit.restBox }] : [] };
  });
  const labelTokens = new Set<string>();
  for (const o of owners) for (let k = o.hit.first; k <= o.hit.last; k++) labelTokens.add(`${o.hit.rowIndex}:${k}`);
  layout.rows.forEach((row, ri) => {
    row.tokens.forEach((t, ti) => {
      if (labelTokens.has(`${ri}:${ti}`)) return;
      const cy = (t.box[1] + t.box[3]) / 2;
      let best: Owner | null = null;
      for (const o of owners) {
        const lb = o.hit.labelBox;
        const u = o.unit;
        // A value may sit a little higher than its label (certificates filled in by a second printer), never a line above it.
        if (lb[1] > cy + 0.6 * (t.box[3] - t.box[1])) continue;
        const beside = t.box[0] >= lb[2] - 1.5 * u && t.box[0] - lb[2] <= 14 * u;
        const under = t.box[1] >= lb[3] - 0.3 * u && t.box[0] >= lb[0] - 0.5 * u && t.box[0] - lb[2] <= 14 * u;
        if (!beside && !under) continue;
        if (!best) {
          best = o;
          continue;
        }
        const b = best.hit.labelBox;
        // Prefer the label column nearest to the piece's left, then the label whose middle is nearest the piece's.
        if (lb[0] > b[2] && lb[2] <= t.box[0] + u) best = o;
        else if (b[0] > lb[2] && b[2] <= t.box[0] + best.unit) continue;
        else if (Math.abs((lb[1] + lb[3]) / 2 - cy) < Math.abs((b[1] + b[3]) / 2 - cy)) best = o;
      }
      // Web addresses printed across a licence (watermarks, portal links) are never part of a field.
      if (best && !/(?:www\.|\.com|\.cn\b|\.net|https?:)/i.test(t.text)) best.pieces.push({ text: t.text, box: t.box });
    });
  });
  const out = new Map<string, TemplateValue>();
  for (const f of fields) {
    for (const o of owners.filter((x) => x.field === f.name)) {
      const lines = contiguousLines(o, f.multiline ? (f.maxLines ?? 12) : 1);
      const lineTexts = lines.map((l) => l.map((p) => p.text).join(' '));
      const text = lineTexts.join(cjkRatio(lineTexts.join('')) > 0.5 ? '' : ' ').trim();
      if (!text || (f.accept && !f.accept.test(text.replace(/\s+/g, '')))) continue;
      out.set(f.name, { value: text, boxes: lines.flat().map((p) => p.box) });
      break;
    }
  }
  return out;
}

/** The owner's pieces grouped into lines top to bottom, stopping at a gap of more than a line and a half. */
function contiguousLines(o: Owner, maxLines: number): Piece[][] {
  const pieces = [...o.pieces].sort((a, b) => a.box[1] - b.box[1]);
  const lines: Piece[][] = [];
  for (const p of pieces) {
    const last = lines[lines.length - 1];
    const mid = (p.box[1] + p.box[3]) / 2;
    if (last) {
      const top = Math.min(...last.map((q) => q.box[1]));
      const bottom = Math.max(...last.map((q) => q.box[3]));
      if (mid <= bottom && mid >= top) {
        last.push(p);
        continue;
      }
      if (p.box[1] - bottom > 1.5 * o.unit) break;
    } else if (p.box[1] - o.hit.labelBox[3] > 2 * o.unit) break;
    if (lines.length >= maxLines) break;
    lines.push([p]);
  }
  for (const l of lines) l.sort((a, b) => a.box[0] - b.box[0]);
  return lines;
}
