/**
 * The recogniser rarely emits spaces, so word breaks are found in the pixels: a run of blank columns in the
 * line crop clearly wider than the line's typical letter gap, between two recognised characters, is a space.
 * (Spaces between two CJK characters are dropped later: Chinese is written without them.)
 */

/**
 * Blank columns of a normalised crop (one channel plane of `h` x `padW` values in -1..1, content in the first
 * `w` columns) and the height of the inked rows, found with a threshold halfway between paper and ink.
 */
export function blankColumns(plane: Float32Array, offset: number, h: number, w: number, padW: number): { blank: Uint8Array; inkHeight: number } {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = plane[offset + y * padW + x]!;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
    }
  }
  const blank = new Uint8Array(w).fill(1);
  if (!(max - min > 0.25)) return { blank, inkHeight: 0 };
  const mid = (min + max) / 2;
  // Paper is what most pixels are: dark text on light paper, or light text on a dark band.
  const darkInk = sum / (h * w) > mid;
  const rowInk = new Uint8Array(h);
  for (let x = 0; x < w; x++) {
    let ink = 0;
    for (let y = 0; y < h; y++) {
      const v = plane[offset + y * padW + x]!;
      if (darkInk ? v < mid : v > mid) {
        ink++;
        rowInk[y] = 1;
      }
    }
    if (ink > 0) blank[x] = 0;
  }
  let top = -1;
  let bottom = -1;
  for (let y = 0; y < h; y++) {
    if (rowInk[y]) {
      if (top < 0) top = y;
      bottom = y;
    }
  }
  return { blank, inkHeight: top < 0 ? 0 : bottom - top + 1 };
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
const PUNCT = /[\p{P}\p{S}]/u;

/** Whether the nearest non-punctuation character on either side of the gap after index i is CJK. */
function cjkContext(chars: string[], i: number): boolean {
  for (let k = i; k >= 0; k--) {
    if (CJK.test(chars[k]!)) return true;
    if (!PUNCT.test(chars[k]!)) break;
  }
  for (let k = i + 1; k < chars.length; k++) {
    if (CJK.test(chars[k]!)) return true;
    if (!PUNCT.test(chars[k]!)) break;
  }
  return false;
}

/** `text` with a space inserted wherever a wide blank gap lies between two characters (positions 0..1 of the width). */
export function insertWordSpaces(text: string, positions: number[], blank: Uint8Array, inkHeight: number): string {
  const chars = [...text];
  if (chars.length < 2 || chars.length !== positions.length || inkHeight === 0) return text;
  const w = blank.length;
  const gaps: { start: number; end: number }[] = [];
  for (let x = 0; x < w; ) {
    if (!blank[x]) {
      x++;
      continue;
    }
    const start = x;
    while (x < w && blank[x]) x++;
    if (start > 0 && x < w) gaps.push({ start, end: x });
  }
  if (gaps.length === 0) return text;
  const sorted = gaps.map((g) => g.end - g.start).sort((a, b) => a - b);
  const typical = sorted[Math.floor(sorted.length / 2)]!;
  // Letter gaps vary with the letters; a word space is well above the line's typical gap,
  // and between a fifth and two fifths of the text height in any common font.
  // CJK glyphs carry wide side bearings and Chinese is set without spaces: only a field-sized gap counts there.
  const latinGap = Math.max(3, Math.min(0.4 * inkHeight, Math.max(0.2 * inkHeight, 2.2 * typical)));
  const cjkGap = Math.max(6, 0.6 * inkHeight);
  const spaceAfter = new Set<number>();
  for (const { start, end } of gaps) {
    if (end - start < latinGap) continue;
    const centre = (start + end) / 2 / w;
    // The gap separates the last character before it from the first after it.
    let i = -1;
    for (let k = 0; k < positions.length - 1; k++) {
      if (positions[k]! < centre && positions[k + 1]! > centre) {
        i = k;
        break;
      }
    }
    if (i < 0 || chars[i] === ' ' || chars[i + 1] === ' ') continue;
    if (end - start >= (cjkContext(chars, i) ? cjkGap : latinGap)) spaceAfter.add(i);
  }
  if (spaceAfter.size === 0) return text;
  let out = '';
  chars.forEach((c, k) => {
    out += c;
    if (spaceAfter.has(k)) out += ' ';
  });
  return out;
}
