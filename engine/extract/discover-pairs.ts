import type { BBox } from '../core/geometry.js';
import type { PageLayout, Row, Token } from './form-layout.js';
import { cleanValue, normaliseLabel } from './field-text.js';
import { cjkRatio } from '../core/text.js';
import { checkedOptions, hasCheckboxes } from './checkbox-value.js';
import { findLabelHits } from './label-locator.js';
import { knownLabels } from './label-synonyms.js';
import { readValue } from './read-value.js';

/** A key and its value as printed on a page (open extraction). */
export interface KeyValuePair {
  key: string;
  value: string;
  keyBox: BBox;
  valueBoxes: BBox[];
  page: number;
  rowIndex: number;
  /** Printed text of key and value together. */
  raw: string;
  fromTable: boolean;
}

const COLON = /[:：]/gu;
const CJK = /[\u4e00-\u9fff]/;
const MAX_KEY_CHARS = 40;

/** Colons that separate a key from its value (not those inside a time, a ratio or a URL). */
function separatorColons(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(COLON)) {
    const i = m.index!;
    const before = text[i - 1] ?? '';
    const after = text[i + 1] ?? '';
    if (m[0] === ':' && /\d/.test(before) && /\d/.test(after)) continue;
    if (m[0] === ':' && after === '/' ) continue;
    if (i === 0) continue;
    out.push(i);
  }
  return out;
}

function looksLikeKey(s: string): boolean {
  const t = s.trim();
  if (!t || [...t].length > MAX_KEY_CHARS) return false;
  const digits = (t.match(/\d/g) ?? []).length;
  if (digits > [...t].length * 0.4) return false;
  if (/[。！？!?]$/.test(t)) return false;
  // Sentence punctuation inside, an unmatched bracket, or a long Chinese phrase: running text, not a key.
  if (/[;；。，、]/u.test(t) || (/[)）]/u.test(t) && !/[(（]/u.test(t))) return false;
  if (cjkRatio(t) > 0.5 && [...t].length > 14) return false;
  return /[\p{L}]/u.test(t);
}

/** Splits a text between two colons into the previous value and the next key. */
function splitValueAndKey(s: string, vocab: Set<string>): [string, string] | null {
  const t = s.trim();
  const words = t.split(/\s+/);
  if (words.length > 1) {
    const last = words[words.length - 1]!;
    if (CJK.test(last)) return [words.slice(0, -1).join(' '), last];
    let k = 1;
    while (k < 3 && k < words.length - 1 && /^[A-Z(]/.test(words[words.length - 1 - k]!)) k++;
    return [words.slice(0, -k).join(' '), words.slice(-k).join(' ')];
  }
  // CJK text run together: the key is a known label at its end.
  const norm = t.toLowerCase();
  let best = '';
  for (const l of vocab) if (CJK.test(l) && norm.endsWith(l) && l.length > best.length && l.length < norm.length) best = l;
  if (best) return [t.slice(0, t.length - best.length), t.slice(t.length - best.length)];
  return null;
}

function partBox(tok: Token, from: number, to: number): BBox {
  const n = Math.max(1, tok.text.length);
  const w = tok.box[2] - tok.box[0];
  return [tok.box[0] + (w * from) / n, tok.box[1], tok.box[0] + (w * to) / n, tok.box[3]];
}

/** True for a token that reads as a label: ends with a colon, starts "key:", or is a known label. */
export function isLabelToken(t: Token, vocab: Set<string>): boolean {
  const s = t.text.trim();
  const c = separatorColons(s);
  if (c.length > 0 && looksLikeKey(s.slice(0, c[0]!)) && c[0]! <= MAX_KEY_CHARS) return true;
  const n = normaliseLabel(s);
  if (vocab.has(n) && (CJK.test(n) || n.length >= 4)) return true;
  // A Chinese label of four or more characters run into its value ("注册资本人民币…").
  for (const l of vocab) if ([...l].length >= 4 && CJK.test(l) && n.startsWith(l)) return true;
  return false;
}

/**
 * Every key-value pair on the pages, in reading order: "key: value" (several per line allowed), a key
 * ending with a colon whose value is the next token or the line below, a known label (zh/en) followed by
 * its value, table label cells next to their value cells; checkbox rows give the checked options.
 */
export function discoverPairs(layouts: PageLayout[]): KeyValuePair[] {
  const vocab = knownLabels();
  const isLabel = (t: Token): boolean => isLabelToken(t, vocab) || isNumberLabel(t.text);
  const pairs: KeyValuePair[] = [];
  for (const layout of layouts) {
    const used = new Set<Token>();
    for (const row of layout.rows) row.tokens = splitRunOnKeys(row.tokens);
    pairs.push(...headerTablePairs(layout, used));
    pairs.push(...columnHeaderPairs(layout, used));
    layout.rows.forEach((row, rowIndex) => {
      row.tokens.forEach((tok, ti) => {
        if (used.has(tok)) return;
        const text = tok.text;
        const colons = separatorColons(text);
        if (colons.length > 0 && looksLikeKey(text.slice(0, colons[0]!))) {
          used.add(tok);
          // keys[i] spans [keyStart[i], colons[i]); value i spans (colons[i], keyStart[i+1])
          const keyStart: number[] = [0];
          const keep: number[] = [colons[0]!];
          for (let c = 1; c < colons.length; c++) {
            const between = text.slice(keep[keep.length - 1]! + 1, colons[c]!);
            const split = splitValueAndKey(between, vocab);
            if (!split || !looksLikeKey(split[1]) || !split[0].trim()) continue;
            keyStart.push(colons[c]! - split[1].length - (between.length - between.trimEnd().length));
            keep.push(colons[c]!);
          }
          for (let k = 0; k < keep.length; k++) {
            const key = text.slice(keyStart[k]!, keep[k]!).trim();
            const vEnd = k + 1 < keep.length ? keyStart[k + 1]! : text.length;
            let value = text.slice(keep[k]! + 1, vEnd).trim();
            let valueBoxes: BBox[] = value ? [partBox(tok, keep[k]! + 1, vEnd)] : [];
            let raw = text.slice(keyStart[k]!, vEnd).trim();
            let fromTable = tok.cell === true;
            if (k === keep.length - 1) {
              // The last key of the token: its value continues on the row (tokens after a gap) and, while
              // the lines below stay in the value's column, onto them; or it is printed under the key.
              const restBox = value ? partBox(tok, keep[k]! + 1, vEnd) : null;
              const keyBox = partBox(tok, keyStart[k]!, keep[k]! + 1);
              const found = readValue(
                layout,
                { label: key, page: tok.page, rowIndex, first: ti, last: ti, labelBox: value ? keyBox : tok.box, rest: value, restBox, raw: text },
                { multiline: true, maxLines: 6, strictColumn: true, isLabel, below: true },
              );
              const later = layout.rows.slice(rowIndex).flatMap((r) => r.tokens).filter((t) => t !== tok && found.boxes.some((b) => b === t.box));
              if (later.some((t) => used.has(t))) {
                if (!value) continue;
              } else {
                for (const t of later) used.add(t);
                value = found.text;
                valueBoxes = found.boxes;
                raw = value ? found.raw : raw;
                fromTable = fromTable || found.fromTable;
              }
            }
            if (hasCheckboxes(value)) value = checkedOptions(value);
            let fullKey = key;
            let keyBox = partBox(tok, keyStart[k]!, keep[k]!);
            // A key whose first words were read as a separate piece just before it ("LORILLARD" "ENTITIES:").
            const above = k === 0 && ti === 0 ? layout.rows[rowIndex - 1]?.tokens.find((t) => Math.abs(t.box[0] - tok.box[0]) < tok.height && tok.box[1] - t.box[3] < 0.6 * tok.height && layout.rows[rowIndex - 1]!.tokens.length === 1) : undefined;
            const prev = k === 0 ? (row.tokens[ti - 1] ?? above) : undefined;
            if (prev && !used.has(prev) && separatorColons(prev.text).length === 0 && looksLikeKey(prev.text) && (prev === above || tok.box[0] - prev.box[2] < 1.5 * tok.height) && /^[A-Z0-9 .&/#()'-]+$/.test(prev.text) && /^[A-Z]/.test(key)) {
              fullKey = `${prev.text} ${key}`;
              keyBox = [prev.box[0], Math.min(prev.box[1], keyBox[1]), keyBox[2], Math.max(prev.box[3], keyBox[3])];
              used.add(prev);
            }
            pairs.push({ key: cleanKey(fullKey), value: cleanValue(value), keyBox, valueBoxes, page: tok.page, rowIndex, raw, fromTable });
          }
        }
      });
    });
    // Number labels without a colon ("# REPS", "Invoice #", "Policy No."): a short value after them on the row.
    layout.rows.forEach((row, rowIndex) => {
      row.tokens.forEach((tok, ti) => {
        if (used.has(tok) || !isNumberLabel(tok.text)) return;
        const next = row.tokens[ti + 1];
        if (!next || used.has(next) || isLabel(next) || next.text.split(/\s+/).length > 4) return;
        if (next.box[0] - tok.box[2] > Math.max(8 * tok.height, layout.page.width * 0.2)) return;
        used.add(tok);
        used.add(next);
        pairs.push({ key: cleanKey(tok.text), value: cleanValue(next.text), keyBox: tok.box, valueBoxes: [next.box], page: tok.page, rowIndex, raw: `${tok.text} ${next.text}`, fromTable: tok.cell === true });
      });
    });
    // Known labels without a colon (spaced out, run into their value, or a label cell).
    const hits = findLabelHits([layout], [...vocab].filter((l) => CJK.test(l) || l.length >= 4));
    for (const hit of hits) {
      const row = layout.rows[hit.rowIndex]!;
      const labelTokens = row.tokens.slice(hit.first, hit.last + 1);
      if (labelTokens.some((t) => used.has(t))) continue;
      const found = readValue(layout, hit, { multiline: false, isLabel, below: false });
      if (!found.text) continue;
      let value = found.text;
      if (hasCheckboxes(value)) value = checkedOptions(value);
      for (const t of labelTokens) used.add(t);
      pairs.push({ key: cleanKey(displayLabel(hit.raw, hit.rest)), value: cleanValue(value), keyBox: hit.labelBox, valueBoxes: found.boxes, page: hit.page, rowIndex: hit.rowIndex, raw: found.raw, fromTable: found.fromTable });
    }
    pairs.push(...columnPairs(layout, used, isLabel));
    // Table cells: a short label cell followed by a value cell.
    layout.rows.forEach((row, rowIndex) => {
      for (let i = 0; i + 1 < row.tokens.length; i++) {
        const a = row.tokens[i]!;
        const b = row.tokens[i + 1]!;
        if (!a.cell || !b.cell || used.has(a) || used.has(b)) continue;
        if (!looksLikeKey(a.text) || [...a.text].length > 12 || isLabel(b)) continue;
        used.add(a);
        used.add(b);
        let value = b.text;
        if (hasCheckboxes(value)) value = checkedOptions(value);
        pairs.push({ key: cleanKey(a.text), value: cleanValue(value), keyBox: a.box, valueBoxes: [b.box], page: a.page, rowIndex, raw: `${a.text} ${b.text}`, fromTable: true });
        i++;
      }
    });
  }
  return orderPairs(pairs);
}

/** A short label for a number, known by its shape: "# REPS", "#REP", "Invoice #", "Policy No.". */
function isNumberLabel(text: string): boolean {
  const t = text.trim();
  if (t.split(/\s+/).length > 4 || !/\p{L}{2}/u.test(t) || /\d/.test(t)) return false;
  return /^#\s?\p{Lu}/u.test(t) || /\p{L}\s?#$/u.test(t) || /\b(?:No|NO)\.$/u.test(t);
}

/**
 * A value and the next "KEY:" read as one piece ("Milw. South DIVISION NAME:") right after a "Key:" that
 * has no value of its own: cut into the value and the key, so that each pairs with its own label.
 */
function splitRunOnKeys(tokens: Token[]): Token[] {
  const out: Token[] = [];
  tokens.forEach((tok, i) => {
    const prev = tokens[i - 1];
    const text = tok.text;
    const colons = separatorColons(text);
    if (prev && /^[^:：]{1,30}[:：]$/u.test(prev.text.trim()) && colons.length === 1 && colons[0] === text.length - 1) {
      // The key: the upper-case words at the end; the value before them has lower-case letters or digits.
      const words = text.slice(0, -1).trimEnd().split(/\s+/);
      let k = 0;
      while (k < 4 && k < words.length - 1 && /\p{Lu}/u.test(words[words.length - 1 - k]!) && !/[\p{Ll}\d]/u.test(words[words.length - 1 - k]!)) k++;
      const key = words.slice(words.length - k).join(' ');
      const value = words.slice(0, words.length - k).join(' ');
      if (k > 0 && /[\p{Ll}\d]/u.test(value) && looksLikeKey(key) && text.lastIndexOf(key) > 0) {
        const cut = text.lastIndexOf(key);
        out.push({ ...tok, text: value, box: partBox(tok, 0, cut) });
        out.push({ ...tok, text: text.slice(cut).trim(), box: partBox(tok, cut, text.length) });
        return;
      }
    }
    out.push(tok);
  });
  return out;
}

/**
 * A row of two or more "Key:" headers with nothing else on it, over rows of values in their columns
 * (a list of recipients with company and fax number): every value under a header pairs with it.
 */
function headerTablePairs(layout: PageLayout, used: Set<Token>): KeyValuePair[] {
  const out: KeyValuePair[] = [];
  layout.rows.forEach((row, rowIndex) => {
    const heads = row.tokens.filter((t) => /^[^:：]{1,30}[:：]$/u.test(t.text.trim()) && looksLikeKey(t.text.replace(/[:：]$/u, '')));
    if (heads.length < 2 || heads.length !== row.tokens.length) return;
    const h = Math.max(4, row.bottom - row.top);
    const bounds = heads.map((t, i) => [t.box[0] - h, i + 1 < heads.length ? heads[i + 1]!.box[0] - h : layout.page.width] as const);
    let lastBottom = row.bottom;
    const found: { head: Token; cells: Token[]; rowIndex: number }[] = [];
    for (let r = rowIndex + 1; r < layout.rows.length; r++) {
      const next = layout.rows[r]!;
      if (next.top - lastBottom > 2.5 * h) break;
      if (next.tokens.some((t) => separatorColons(t.text).length > 0 && looksLikeKey(t.text.slice(0, separatorColons(t.text)[0]!)) && !/\d:\d/.test(t.text))) break;
      // Text running across a column boundary is a paragraph under the headers, not a row of their values.
      if (next.tokens.some((t) => bounds.some(([x1, x2], i) => t.box[0] >= x1 && t.box[0] < x2 - 2 * h && i + 1 < bounds.length && t.box[2] > x2 + h))) break;
      let any = false;
      // A row close under the previous one that fills only some columns continues those cells ("&Katz").
      const filled = heads.filter((_, i) => next.tokens.some((t) => t.box[0] >= bounds[i]![0] && t.box[0] < bounds[i]![1])).length;
      const continues = found.length > 0 && filled < heads.length && next.top - lastBottom < 0.35 * h;
      heads.forEach((head, i) => {
        const [x1, x2] = bounds[i]!;
        const cells = next.tokens.filter((t) => t.box[0] >= x1 && t.box[0] < x2);
        if (cells.length) {
          const prev = continues ? [...found].reverse().find((f) => f.head === head) : undefined;
          if (prev) prev.cells.push(...cells);
          else found.push({ head, cells, rowIndex: r });
          any = true;
        }
      });
      if (!any) break;
      lastBottom = next.bottom;
    }
    if (found.length < heads.length) return;
    for (const t of heads) used.add(t);
    for (const f of found) {
      for (const c of f.cells) used.add(c);
      const value = f.cells.map((c) => c.text).join(' ');
      out.push({ key: cleanKey(f.head.text), value: cleanValue(value), keyBox: f.head.box, valueBoxes: f.cells.map((c) => c.box), page: f.head.page, rowIndex: f.rowIndex, raw: `${f.head.text} ${value}`, fromTable: true });
    }
  });
  return out;
}

/** A column heading without a colon: a few upper-case words, no digits ("NAME OF ACCOUNT", "# REPS"). */
function isColumnHeading(text: string): boolean {
  const t = text.trim();
  const letters = t.replace(/[^\p{L}]/gu, '');
  if (letters.length < 3 || /\d/.test(t) || /[:：]$/u.test(t) || t.split(/\s+/).length > 4) return false;
  const upper = letters.replace(/[^\p{Lu}]/gu, '').length;
  return upper >= 0.8 * letters.length && looksLikeKey(t);
}

/**
 * A table printed as a row of upper-case column headings (no colons) over rows of values: every value
 * pairs with the heading of its column. A heading's first words may stand on the line above it
 * ("NO. OF" over "STORES"). Value columns are found from where the values start; when there are as
 * many as headings they pair in order, else each goes to the heading nearest its centre.
 */
function columnHeaderPairs(layout: PageLayout, used: Set<Token>): KeyValuePair[] {
  const out: KeyValuePair[] = [];
  const isHeadRow = (r: Row | undefined): boolean => !!r && r.tokens.length >= 2 && r.tokens.every((t) => !used.has(t) && isColumnHeading(t.text));
  for (let ri = 0; ri < layout.rows.length; ri++) {
    const row = layout.rows[ri]!;
    if (!isHeadRow(row)) continue;
    const heads = row.tokens;
    const h = Math.max(4, Math.min(...heads.map((t) => t.height)));
    if (heads.some((t, i) => i > 0 && t.box[0] - heads[i - 1]!.box[2] < 1.5 * h)) continue;
    const data: { tokens: Token[]; rowIndex: number }[] = [];
    let lastBottom = row.bottom;
    for (let r = ri + 1; r < layout.rows.length && data.length < 40; r++) {
      const next = layout.rows[r]!;
      if (next.top - lastBottom > 2.5 * h) break;
      // A row of headings only (even one) is a label, not values: the headings above were label and value.
      // A row led by a heading is a label with its value beside it: the table has ended.
      if (next.tokens.every((t) => isColumnHeading(t.text)) || isColumnHeading(next.tokens[0]!.text) || next.tokens.some((t) => used.has(t))) break;
      if (next.tokens.some((t) => separatorColons(t.text).length > 0 && /\p{L}{2}/u.test(t.text.slice(0, separatorColons(t.text)[0]!)))) break;
      if (next.tokens.length > heads.length + 2) break;
      data.push({ tokens: next.tokens, rowIndex: r });
      lastBottom = next.bottom;
    }
    if (data.length === 0) continue;
    // Columns of values: runs of close left edges.
    // (A letter or two without a digit is a speck or a stray mark, not a value.)
    const lefts = data.flatMap((d) => d.tokens).filter((t) => /\d/.test(t.text) || t.text.replace(/[^\p{L}]/gu, '').length > 2).sort((a, b) => a.box[0] - b.box[0]);
    const clusters: Token[][] = [];
    for (const t of lefts) {
      const last = clusters[clusters.length - 1];
      if (last && t.box[0] - last[last.length - 1]!.box[0] <= 0.8 * h) last.push(t);
      else clusters.push([t]);
    }
    const minSize = data.length >= 3 ? Math.max(2, Math.ceil(0.4 * data.length)) : 1;
    const columns = clusters.filter((c) => c.length >= minSize);
    if (columns.length < 2 && heads.length > 1 && data.length > 1) continue;
    const headOf = new Map<Token, Token>();
    const centre = (b: BBox): number => (b[0] + b[2]) / 2;
    columns.forEach((col, ci) => {
      let head: Token;
      if (columns.length === heads.length) head = heads[ci]!;
      else {
        const c = col.reduce((a, t) => a + centre(t.box), 0) / col.length;
        head = heads.reduce((best, hd) => (Math.abs(centre(hd.box) - c) < Math.abs(centre(best.box) - c) ? hd : best));
      }
      // A value lies between the headings beside its own (the last column reaches a little past its heading).
      const hi = heads.indexOf(head);
      const lo = hi > 0 ? heads[hi - 1]!.box[2] : -Infinity;
      const up = hi + 1 < heads.length ? heads[hi + 1]!.box[0] : head.box[2] + 3 * h;
      for (const t of col) if (t.box[2] > lo && t.box[0] < up) headOf.set(t, head);
    });
    const cells = data.flatMap((d) => heads.map((head) => ({ head, rowIndex: d.rowIndex, tokens: d.tokens.filter((t) => headOf.get(t) === head) })).filter((c) => c.tokens.length > 0));
    if (cells.length < 2) continue;
    // The first words of a heading printed on the line above it.
    const above = layout.rows[ri - 1];
    const keyOf = new Map<Token, { key: string; box: BBox }>();
    for (const head of heads) {
      const pre = above && above.bottom > head.box[1] - 0.8 * h ? above.tokens.find((t) => !used.has(t) && isColumnHeading(t.text) && Math.min(t.box[2], head.box[2]) - Math.max(t.box[0], head.box[0]) > 0.5 * Math.min(t.box[2] - t.box[0], head.box[2] - head.box[0])) : undefined;
      if (pre) used.add(pre);
      keyOf.set(head, pre ? { key: `${pre.text.replace(/[.\s]+$/u, '')} ${head.text}`, box: [Math.min(pre.box[0], head.box[0]), pre.box[1], Math.max(pre.box[2], head.box[2]), head.box[3]] } : { key: head.text, box: head.box });
    }
    for (const head of heads) used.add(head);
    for (const c of cells) {
      for (const t of c.tokens) used.add(t);
      const k = keyOf.get(c.head)!;
      const value = c.tokens.map((t) => t.text).join(' ');
      out.push({ key: cleanKey(k.key), value: cleanValue(value), keyBox: k.box, valueBoxes: c.tokens.map((t) => t.box), page: c.head.page, rowIndex: c.rowIndex, raw: `${k.key} ${value}`, fromTable: true });
    }
    ri = data[data.length - 1]!.rowIndex;
  }
  return out;
}

/**
 * Forms printed as a column of labels with their values in a second column, without colons or rules:
 * a label-like token followed after a gap by a value on the same row, where at least two other rows
 * start a label at the same x and at least one other value starts at the same x.
 */
function columnPairs(layout: PageLayout, used: Set<Token>, isLabel: (t: Token) => boolean): KeyValuePair[] {
  const cands: { a: Token; b: Token; rowIndex: number }[] = [];
  layout.rows.forEach((row, rowIndex) => {
    const free = row.tokens.filter((t) => !used.has(t));
    // Four or more word-only pieces on a row are a grid of options (checkbox choices), not label and value.
    if (free.length >= 4 && free.every((t) => !/\d/.test(t.text) && looksLikeKey(t.text))) return;
    for (let i = 0; i + 1 < free.length; i++) {
      const a = free[i]!;
      const b = free[i + 1]!;
      if (!looksLikeKey(a.text) || /\d{3,}/.test(a.text) || isLabel(b)) continue;
      const gap = b.box[0] - a.box[2];
      if (gap < 1.0 * a.height || gap > layout.page.width * 0.4) continue;
      cands.push({ a, b, rowIndex });
      i++;
    }
  });
  const out: KeyValuePair[] = [];
  for (const c of cands) {
    const tol = 0.6 * c.a.height;
    const sameLabelX = cands.filter((d) => d !== c && Math.abs(d.a.box[0] - c.a.box[0]) <= tol).length;
    const sameValueX = cands.filter((d) => d !== c && Math.abs(d.a.box[0] - c.a.box[0]) <= tol && Math.abs(d.b.box[0] - c.b.box[0]) <= 1.5 * c.a.height).length;
    if (sameLabelX < 2 || sameValueX < 1) continue;
    if (used.has(c.a) || used.has(c.b)) continue;
    used.add(c.a);
    used.add(c.b);
    let value = c.b.text;
    if (hasCheckboxes(value)) value = checkedOptions(value);
    out.push({ key: cleanKey(c.a.text), value: cleanValue(value), keyBox: c.a.box, valueBoxes: [c.b.box], page: c.a.page, rowIndex: c.rowIndex, raw: `${c.a.text} ${c.b.text}`, fromTable: c.a.cell === true });
  }
  return out;
}

function displayLabel(raw: string, rest: string): string {
  const r = raw.trim();
  return rest && r.endsWith(rest) ? r.slice(0, r.length - rest.length) : r;
}

function cleanKey(k: string): string {
  const t = k.replace(/[:：]+\s*$/u, '').trim();
  // Spaced-out CJK labels read as one word ("名 称" -> "名称").
  return CJK.test(t) && !/[a-z]{2}/i.test(t) ? t.replace(/\s+/g, '') : t.replace(/\s+/g, ' ');
}

/** Reading order: page, then row, then left to right. */
function orderPairs(pairs: KeyValuePair[]): KeyValuePair[] {
  return [...pairs].sort((p, q) => p.page - q.page || p.rowIndex - q.rowIndex || p.keyBox[0] - q.keyBox[0]);
}
