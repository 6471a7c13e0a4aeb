import type { BBox } from '../core/geometry.js';
import type { PageLayout, Token } from './form-layout.js';

/** Where a label was found: the tokens it spans and any value text left in its last token. */
export interface LabelHit {
  label: string; // normalised label that matched
  page: number;
  rowIndex: number;
  /** Index of the first and last token of the row that hold the label. */
  first: number;
  last: number;
  labelBox: BBox;
  /** Text of the last label token after the label (value printed in the same token), separators removed. */
  rest: string;
  restBox: BBox | null;
  /** The label's tokens' own text as printed. */
  raw: string;
}

const LEADING_NUMBER = /^\s*(?:[(（]?\d{1,2}[)）.、]|[(（][一二三四五六七八九十]+[)）]|[一二三四五六七八九十]+、|[①-⑳])\s*/u;
const SEPARATOR = /^[\s:：.·•_\-—|]*/u;
const IS_LATIN = /[a-z]/i;

/**
 * If `text` (ignoring whitespace and case, after an optional list number) begins with `label`,
 * returns the index in `text` just after the label; else -1.
 */
export function labelPrefixEnd(text: string, label: string): number {
  const lead = LEADING_NUMBER.exec(text);
  let i = lead ? lead[0].length : 0;
  const chars = [...label];
  let k = 0;
  const src = text;
  while (i < src.length && k < chars.length) {
    const ch = src[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch.toLowerCase() !== chars[k]) return -1;
    i += ch.length;
    k++;
  }
  return k === chars.length ? i : -1;
}

function boxPart(box: BBox, text: string, from: number): BBox {
  const n = Math.max(1, text.length);
  const x = box[0] + ((box[2] - box[0]) * from) / n;
  return [x, box[1], box[2], box[3]];
}

/**
 * Finds every place where one of `labels` (normalised) starts a token, or is spelt over up to six
 * consecutive tokens (labels printed spaced out: "名 称"). Longest label wins at a position.
 * A Latin label must be followed by a separator or the token's end; a CJK label may run into its value.
 */
export function findLabelHits(layouts: PageLayout[], labels: readonly string[]): LabelHit[] {
  const sorted = [...new Set(labels)].filter((l) => l.length > 0).sort((a, b) => [...b].length - [...a].length);
  const hits: LabelHit[] = [];
  for (const layout of layouts) {
    layout.rows.forEach((row, rowIndex) => {
      const toks = row.tokens;
      for (let i = 0; i < toks.length; i++) {
        const hit = matchAt(toks, i, sorted);
        if (!hit) continue;
        const firstTok = toks[i]!;
        const lastTok = toks[hit.last]!;
        const restRaw = lastTok.text.slice(hit.end);
        const sep = SEPARATOR.exec(restRaw)?.[0] ?? '';
        const rest = restRaw.slice(sep.length).trim();
        const cut = hit.end + sep.length;
        hits.push({
          label: hit.label,
          page: firstTok.page,
          rowIndex,
          first: i,
          last: hit.last,
          labelBox: [firstTok.box[0], Math.min(firstTok.box[1], lastTok.box[1]), rest ? boxPart(lastTok.box, lastTok.text, hit.end)[0] : lastTok.box[2], Math.max(firstTok.box[3], lastTok.box[3])],
          rest,
          restBox: rest ? boxPart(lastTok.box, lastTok.text, cut) : null,
          raw: toks.slice(i, hit.last + 1).map((t) => t.text).join(' '),
        });
        i = hit.last;
      }
    });
  }
  return hits;
}

function matchAt(toks: Token[], i: number, labels: readonly string[]): { label: string; last: number; end: number } | null {
  const t = toks[i]!.text;
  for (const label of labels) {
    const end = labelPrefixEnd(t, label);
    if (end < 0) continue;
    const after = t.slice(end);
    if (IS_LATIN.test(label) && after && !/^[\s:：.#_\-]/.test(after)) continue;
    if (IS_LATIN.test(label) && after && /^\s+[a-z]/i.test(after) && !/^\s*[:：]/.test(after)) continue;
    return { label, last: i, end };
  }
  // Spaced-out label over several short tokens ("名" "称", "住 所").
  let joined = '';
  for (let j = i; j < Math.min(toks.length, i + 6); j++) {
    const part = toks[j]!.text.replace(/\s+/g, '').toLowerCase();
    joined += part;
    if (j === i) continue;
    for (const label of labels) {
      if (!/[\u4e00-\u9fff]/.test(label)) continue;
      const stripped = joined.replace(/[:：]+$/, '');
      if (stripped === label) return { label, last: j, end: toks[j]!.text.length };
      if (joined.startsWith(label) && !joined.slice(0, -part.length).startsWith(label) && label.startsWith(joined.slice(0, -part.length))) {
        const lastText = toks[j]!.text;
        const need = [...label].length - [...joined.slice(0, -part.length)].length;
        const end = labelPrefixEnd(lastText, [...label].slice(-need).join(''));
        if (end >= 0) return { label, last: j, end };
      }
    }
    if (!labels.some((l) => l.startsWith(joined))) break;
  }
  return matchSpacedMissingOne(toks, i, labels);
}

/** A spaced-out label of four or more characters with one character lost by the reader ("成 立 期"). */
function matchSpacedMissingOne(toks: Token[], i: number, labels: readonly string[]): { label: string; last: number; end: number } | null {
  let joined = '';
  for (let j = i; j < Math.min(toks.length - 1, i + 6); j++) {
    const part = toks[j]!.text.replace(/\s+/g, '');
    if ([...part].length > 2) break;
    joined += part;
    if (j === i) continue;
    const got = [...joined];
    for (const label of labels) {
      const want = [...label];
      if (want.length < 4 || got.length !== want.length - 1 || got[0] !== want[0]) continue;
      for (let skip = 1; skip < want.length; skip++) {
        if (want.filter((_, k) => k !== skip).join('') === joined) return { label, last: j, end: toks[j]!.text.length };
      }
    }
  }
  return null;
}
