import type { TextLine } from '../../core/page.js';

/** Length of the longest common subsequence of two short strings (characters, not UTF-16 units). */
function commonLength(a: string, b: string): number {
  const A = [...a];
  const B = [...b];
  let prev = new Array<number>(B.length + 1).fill(0);
  for (let i = 1; i <= A.length; i++) {
    const cur = new Array<number>(B.length + 1).fill(0);
    for (let j = 1; j <= B.length; j++) cur[j] = A[i - 1] === B[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  return prev[B.length]!;
}

/**
 * OCR can read one line of large type twice, as two boxes half on top of each other with nearly the same text
 * ("上蔡农联社助农种植反季节里兹" / "上蔡农联社助农种植反李节果疏"). Such a pair is one line: the taller box stays.
 * A pair counts when the boxes share most of their width, overlap by a quarter of the lower height or more,
 * and two thirds of the characters of the longer text are common to both in order. Lines stacked in a column
 * overlap by a pixel or two at most, and differ in text.
 */
export function dropDuplicateOcrLines(lines: readonly TextLine[]): TextLine[] {
  const gone = new Set<TextLine>();
  const ocr = lines.filter((l) => l.source === 'ocr' && [...l.text.trim()].length >= 4 && [...l.text].length <= 80);
  for (let i = 0; i < ocr.length; i++) {
    const a = ocr[i]!;
    if (gone.has(a)) continue;
    for (let j = i + 1; j < ocr.length; j++) {
      const b = ocr[j]!;
      if (gone.has(b)) continue;
      const ov = Math.min(a.bbox[3], b.bbox[3]) - Math.max(a.bbox[1], b.bbox[1]);
      const minH = Math.min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]);
      if (ov < 0.25 * minH) continue;
      const ox = Math.min(a.bbox[2], b.bbox[2]) - Math.max(a.bbox[0], b.bbox[0]);
      const minW = Math.min(a.bbox[2] - a.bbox[0], b.bbox[2] - b.bbox[0]);
      // Side by side on one row is two pieces of a line, not one read twice.
      if (ox < 0.8 * minW || ov >= 0.8 * minH) continue;
      const ta = a.text.replace(/\s+/g, '');
      const tb = b.text.replace(/\s+/g, '');
      if (commonLength(ta, tb) < (2 / 3) * Math.max([...ta].length, [...tb].length)) continue;
      const drop = a.bbox[3] - a.bbox[1] >= b.bbox[3] - b.bbox[1] ? b : a;
      gone.add(drop);
      if (drop === a) break;
    }
  }
  return gone.size ? lines.filter((l) => !gone.has(l)) : [...lines];
}
