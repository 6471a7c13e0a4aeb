import type { BBox } from '../core/geometry.js';
import { cjkRatio } from '../core/text.js';
import type { PageLayout, Token } from './form-layout.js';
import type { LabelHit } from './label-locator.js';

export interface FoundValue {
  text: string;
  /** Boxes of the value's pieces (the rest of the label token, tokens right of it, lines below). */
  boxes: BBox[];
  /** Printed text of label and value together, as a reader sees it. */
  raw: string;
  fromTable: boolean;
}

export interface ReadValueOptions {
  /** Follow the value onto the lines below while they stay in its column (wrapped text). */
  multiline: boolean;
  /** True for a token that starts another label: the value stops there. */
  isLabel: (t: Token) => boolean;
  /** How many lines below at most (multiline). */
  maxLines?: number;
  /** Continue below only over rows that hold nothing but the value's column. */
  strictColumn?: boolean;
  /** Gap (pixels) after value text beyond which the row's next token belongs to another field. */
  wideGap?: number;
  /** Accept a value printed under the label when nothing follows it on its line. */
  below?: boolean;
}

const CJK_END = /[\u2e80-\uffef]$/;
const CJK_START = /^[\u2e80-\uffef]/;

/** Joins value pieces; `wrapped` marks pieces that continue the text of the line above. */
function joinParts(parts: string[], wrapped: ReadonlySet<number> = new Set()): string {
  const cjkText = cjkRatio(parts.join('')) > 0.5;
  let out = '';
  parts.forEach((p, i) => {
    if (!out) out = p;
    else if ((CJK_END.test(out) && CJK_START.test(p)) || (wrapped.has(i) && (cjkText || CJK_END.test(out) || CJK_START.test(p)))) out += p;
    else out += ' ' + p;
  });
  return out.trim();
}

/**
 * The value that belongs to a label: the rest of its token, then tokens to its right on the same row up to
 * the next label, then (multiline) rows below whose tokens start inside the value's column, until a label,
 * a blank gap or a token left of the column.
 */
export function readValue(layout: PageLayout, hit: LabelHit, opts: ReadValueOptions): FoundValue {
  const row = layout.rows[hit.rowIndex]!;
  const parts: string[] = [];
  const wrapped = new Set<number>();
  const boxes: BBox[] = [];
  const h = Math.max(4, row.bottom - row.top);
  if (hit.rest) {
    parts.push(hit.rest);
    if (hit.restBox) boxes.push(hit.restBox);
  }
  let columnRight = layout.page.width;
  let fromTable = false;
  let prevRight = hit.restBox ? hit.restBox[2] : hit.labelBox[2];
  for (let k = hit.last + 1; k < row.tokens.length; k++) {
    const t = row.tokens[k]!;
    if (opts.isLabel(t)) {
      columnRight = t.box[0];
      break;
    }
    // A very wide gap means another column starts (before any value text, a narrower one already does).
    const gap = t.box[0] - prevRight;
    // The one piece left on the row after a "Key:" is its value however far off it is printed.
    const lone = parts.length === 0 && k === row.tokens.length - 1 && /[:：]\s*$/u.test(hit.raw) && opts.wideGap === undefined && gap < layout.page.width * 0.45;
    if (!lone && (gap > Math.max(opts.wideGap ?? 8 * h, layout.page.width * (opts.wideGap ? 0 : 0.25)) || (parts.length > 0 && opts.wideGap === undefined && gap > 5 * h) || (parts.length === 0 && gap > Math.max(8 * h, layout.page.width * 0.2)))) {
      columnRight = t.box[0];
      break;
    }
    parts.push(t.text);
    boxes.push(t.box);
    prevRight = t.box[2];
    if (t.cell) fromTable = true;
  }
  const finish = (): FoundValue => ({
    text: joinParts(parts, wrapped),
    boxes,
    raw: [hit.raw, joinParts(parts.slice(hit.rest ? 1 : 0))].filter(Boolean).join(' '),
    fromTable: fromTable || row.tokens[hit.first]?.cell === true,
  });
  const below = opts.below ?? true;
  const valueLeft = boxes.length > 0 ? boxes[0]![0] : hit.labelBox[0];
  const sameRowEmpty = parts.length === 0;
  // A blank "Key:" with another label right beside it is one of a row of blank fields: what is printed
  // under them is the next part of the form.
  const nextIsLabel = sameRowEmpty && row.tokens[hit.last + 1] !== undefined && opts.isLabel(row.tokens[hit.last + 1]!) && /[:：]\s*$/u.test(hit.raw);
  if (nextIsLabel) return finish();
  if (!opts.multiline && !(sameRowEmpty && below)) {
    return finish();
  }
  const maxLines = opts.multiline ? (opts.maxLines ?? 12) : 1;
  let lastBottom = row.bottom;
  // Line pitch of the value so far: a clearly wider step down starts a new paragraph.
  let lastTop = row.top;
  let pitch = 0;
  let taken = 0;
  // Wrapped text starts its lines at the x where the value's first line starts: a line far right of it is
  // another field (a second column of dates beside a name), not the value's continuation.
  let anchorLeft: number | null = sameRowEmpty ? null : valueLeft;
  for (let r = hit.rowIndex + 1; r < layout.rows.length && taken < maxLines; r++) {
    const next = layout.rows[r]!;
    const lh = Math.max(4, next.bottom - next.top);
    if (next.top - lastBottom > Math.max(h, lh) * (sameRowEmpty && taken === 0 ? 1.6 : 1.0)) break;
    if (pitch > 0 && next.top - lastTop > 1.5 * pitch) break;
    const left = sameRowEmpty ? hit.labelBox[0] - 1.5 * h : valueLeft - 1.5 * h;
    const inColumn = next.tokens.filter((t) => t.box[0] >= left && t.box[0] < columnRight - h * 0.5);
    const leftOfColumn = next.tokens.filter((t) => t.box[2] <= left + h);
    if (inColumn.length === 0) {
      if (leftOfColumn.length > 0) break;
      continue;
    }
    if (leftOfColumn.some((t) => opts.isLabel(t) || Math.abs(t.box[0] - hit.labelBox[0]) < 2 * h)) break;
    if (opts.strictColumn && (leftOfColumn.length > 0 || next.tokens.length !== inColumn.length)) break;
    if (opts.isLabel(inColumn[0]!)) break;
    // (A value whose end slipped half a line down on a skewed scan goes on right where the line above ended.)
    const lastRight = boxes.length > 0 ? boxes[boxes.length - 1]![2] : null;
    const slipped = taken === 0 && lastRight !== null && Math.abs(inColumn[0]!.box[0] - lastRight) < 2 * h && next.top - row.top < 1.2 * h;
    if (anchorLeft !== null && !slipped && Math.abs(inColumn[0]!.box[0] - anchorLeft) > 2.5 * h) break;
    const taking: Token[] = [];
    for (const t of inColumn) {
      if (opts.isLabel(t)) break;
      taking.push(t);
    }
    if (parts.length > 0) wrapped.add(parts.length);
    parts.push(...taking.map((t) => t.text));
    boxes.push(...taking.map((t) => t.box));
    if (taking.some((t) => t.cell)) fromTable = true;
    lastBottom = next.bottom;
    pitch = next.top - lastTop;
    lastTop = next.top;
    taken++;
    if (!opts.multiline) break;
  }
  return finish();
}
