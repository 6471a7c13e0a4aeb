import type { DocumentPages, TextLine } from '../core/page.js';
import { characterXs } from './span-boxes.js';

/** Where a character of the document text came from. */
export interface CharSource {
  page: number; // index into doc.pages
  line: number; // index into page.lines
  offset: number; // UTF-16 offset in line.text
}

/**
 * The text of a whole document for detection: lines joined by '\n', pages by '\n\n', with a map from
 * every character back to its line. Spaces between two CJK characters are dropped (OCR and spaced-out
 * forms write 张 三), so that a name reads as one word.
 */
export interface DocumentText {
  text: string;
  sources: Array<CharSource | null>;
}

const CJK_OR_PUNCT = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef:]/;

export function buildDocumentText(doc: DocumentPages): DocumentText {
  let text = '';
  const sources: Array<CharSource | null> = [];
  const appendLine = (t: string, p: number, l: number): void => {
    for (let i = 0; i < t.length; i++) {
      const ch = t[i]!;
      if (/\s/.test(ch)) {
        let j = i;
        while (j < t.length && /\s/.test(t[j]!)) j++;
        const prev = t[i - 1];
        const next = t[j];
        if (!(prev !== undefined && next !== undefined && CJK_OR_PUNCT.test(prev) && CJK_OR_PUNCT.test(next))) {
          text += ' ';
          sources.push({ page: p, line: l, offset: i });
        }
        i = j - 1;
        continue;
      }
      text += ch;
      sources.push({ page: p, line: l, offset: i });
    }
  };
  doc.pages.forEach((page, p) => {
    if (p > 0) {
      text += '\n\n';
      sources.push(null, null);
    }
    page.lines.forEach((line, l) => {
      if (l > 0) {
        text += '\n';
        sources.push(null);
      }
      appendLine(line.text, p, l);
    });
  });
  // Forms printed as grids put a label in one cell and its value in the next cell to the right or
  // below; reading order separates them. Each such pair is appended as "label:value" so that the
  // detectors see the value after its label (the label's characters map to nothing).
  doc.pages.forEach((page, p) => {
    for (const [labelIdx, valueIdx] of labelValuePairs(page.lines)) {
      const label = page.lines[labelIdx]!.text.replace(/[\s:：]+$/, '');
      text += '\n' + label + ':';
      for (let k = 0; k <= label.length; k++) sources.push(null);
      sources.push(null);
      const valueLine = page.lines[valueIdx]!;
      const [from, to] = columnRange(page.lines, labelIdx, valueLine);
      const before = text.length;
      appendLine(valueLine.text.slice(from, to), p, valueIdx);
      for (let k = before; k < sources.length; k++) {
        const src = sources[k];
        if (src) sources[k] = { ...src, offset: src.offset + from };
      }
    }
  });
  return { text, sources };
}

/**
 * The characters of a value line that stand in the label's column: a reader may join the cells of a
 * grid row into one line (反流待排),高血压病2级(中危)31), and only the part under 床号 is its value.
 */
function columnRange(lines: readonly TextLine[], labelIdx: number, value: TextLine): [number, number] {
  const lb = lines[labelIdx]!.bbox;
  if (value.bbox[1] < lb[3] - 2) return [0, value.text.length]; // a neighbour to the right: all of it
  const h = Math.max(1, lb[3] - lb[1]);
  // The column ends where the next label of the same row starts.
  let right = Infinity;
  for (const l of lines) {
    const b = l.bbox;
    if (l === lines[labelIdx] || b[0] <= lb[2]) continue;
    if (Math.min(lb[3], b[3]) - Math.max(lb[1], b[1]) > 0.5 * h) right = Math.min(right, b[0]);
  }
  const left = lb[0] - 0.6 * h;
  if (value.bbox[0] >= left && value.bbox[2] <= right) return [0, value.text.length];
  const xs = characterXs(value);
  let from = -1;
  let to = -1;
  xs.forEach(([a, b], i) => {
    const c = (a + b) / 2;
    if (c >= left && c < right - 0.3 * h) {
      if (from < 0) from = i;
      to = i + 1;
    }
  });
  if (from < 0) return [0, 0];
  // Widths inside an OCR line are estimates: where the merged cells are split by a gap (a space or a
  // bar) within a few characters of the column edge, the gap is the true edge.
  const gapNear = (edge: number): number => {
    for (let d = 0; d <= 3; d++) {
      for (const k of [edge - 1 - d, edge - 1 + d]) if (k >= 0 && k < value.text.length && /[\s|｜丨]/.test(value.text[k]!)) return k;
    }
    return -1;
  };
  const g1 = gapNear(from);
  if (g1 >= 0 && g1 + 1 < to) from = g1 + 1;
  if (to < value.text.length) {
    const g2 = gapNear(to + 1);
    if (g2 > from) to = g2;
  }
  // OCR reads the ruling between two merged cells as a bar: it is no part of the value.
  while (from < to && /[\s|｜丨:：,，;；]/.test(value.text[from]!)) from++;
  while (to > from && /[\s|｜丨,，;；]/.test(value.text[to - 1]!)) to--;
  return [from, to];
}

/** A short line of Han characters (at most 8) that ends with a colon or a label word: a form label. */
const SHORT_HAN = /^[\u3400-\u9fff()（）/]{1,8}[\s:：]*$/;
const LABEL_END =
  /(?:[:：]|姓名|名称|性别|年龄|日期|时间|号|号码|住址|地址|电话|手机|联系人|单位|科别|科室|诊断|职业|民族|婚姻|籍贯|关系|签名|医师|医生|护士|者|人|别|龄|码)\s*$/;
function isLabelLine(text: string): boolean {
  const t = text.trim();
  return SHORT_HAN.test(t) && LABEL_END.test(t);
}

function labelValuePairs(lines: readonly TextLine[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  lines.forEach((label, li) => {
    if (!isLabelLine(label.text)) return;
    const lb = label.bbox;
    const h = Math.max(1, lb[3] - lb[1]);
    let best = -1;
    let bestDist = Infinity;
    lines.forEach((cand, ci) => {
      if (ci === li || isLabelLine(cand.text)) return;
      const cb = cand.bbox;
      const vOverlap = Math.min(lb[3], cb[3]) - Math.max(lb[1], cb[1]);
      // Same row, to the right, not far.
      if (vOverlap > 0.5 * Math.min(h, cb[3] - cb[1]) && cb[0] >= lb[2] - 2 && cb[0] - lb[2] < 12 * h) {
        const d = cb[0] - lb[2];
        if (d < bestDist) {
          bestDist = d;
          best = ci;
        }
      }
      // Below, in the same column (overlapping most of the narrower box, or left-aligned), within three line heights.
      const hOverlap = Math.min(lb[2], cb[2]) - Math.max(lb[0], cb[0]);
      const narrower = Math.max(1, Math.min(lb[2] - lb[0], cb[2] - cb[0]));
      const gap = cb[1] - lb[3];
      if (gap >= -0.2 * h && gap < 3 * h && (hOverlap > 0.3 * narrower || Math.abs(cb[0] - lb[0]) < h)) {
        // Prefer the right-hand neighbour when both are as near, and the better-aligned cell below.
        const d = gap + h * 0.5 + Math.abs(cb[0] - lb[0]) * 0.1;
        if (d < bestDist) {
          bestDist = d;
          best = ci;
        }
      }
    });
    if (best < 0) return;
    pairs.push([li, best]);
    // A long address or work unit wraps inside its cell: the lines right under the value continue it.
    if (!/地址|住址|住所|单位/.test(label.text)) return;
    let prev = lines[best]!;
    for (let guard = 0; guard < 3; guard++) {
      const pb = prev.bbox;
      const ph = Math.max(1, pb[3] - pb[1]);
      const next = lines.findIndex((l) => {
        const b = l.bbox;
        return l !== prev && !isLabelLine(l.text) && b[1] - pb[3] >= -0.2 * ph && b[1] - pb[3] < 0.9 * ph && Math.abs(b[0] - pb[0]) < ph;
      });
      if (next < 0) break;
      pairs.push([li, next]);
      prev = lines[next]!;
    }
  });
  return pairs;
}

/** The line pieces [start, end) in line offsets that a document-text span covers. */
export function spanToLinePieces(
  dt: DocumentText,
  start: number,
  end: number,
): Array<{ page: number; line: number; start: number; end: number }> {
  const out: Array<{ page: number; line: number; start: number; end: number }> = [];
  for (let i = start; i < end; i++) {
    const src = dt.sources[i];
    if (!src) continue;
    const last = out[out.length - 1];
    if (last && last.page === src.page && last.line === src.line) last.end = src.offset + 1;
    else out.push({ page: src.page, line: src.line, start: src.offset, end: src.offset + 1 });
  }
  return out;
}
