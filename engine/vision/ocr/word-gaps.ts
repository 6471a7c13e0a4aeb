/**
 * The recogniser often drops spaces, so word breaks come from two signs: the space class gaining probability
 * between two characters (without winning), or a run of blank columns in the line crop clearly wider than the
 * line's typical letter gap. Spaces between two CJK characters are dropped later: Chinese is written without them.
 */

/** Space-class probability between two characters that marks a word break even when the space lost. */
const SPACE_HINT = 0.08;

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

const LETTER = /^[A-Za-z]$/;
const DIGIT = /^[0-9]$/;
const ALNUM = /^[A-Za-z0-9]$/;

/**
 * Pixel gaps are trusted only where a gap means a word break: between letters (or a letter and a digit), or after a letter's
 * comma/semicolon/colon (or a full stop before a capital). Digits ("1" is narrow with wide margins),
 * decimals and URLs keep only the spaces the recogniser itself saw.
 */
function wordBoundaryShape(chars: string[], i: number): boolean {
  const a = chars[i]!;
  const b = chars[i + 1]!;
  if ((LETTER.test(a) && ALNUM.test(b)) || (DIGIT.test(a) && LETTER.test(b))) return true;
  const beforeA = chars[i - 1] ?? '';
  if (!LETTER.test(beforeA)) return false;
  if (/[,;:!?)]/.test(a)) return LETTER.test(b) || b === '(';
  if (a === '.') return /[A-Z]/.test(b);
  return false;
}

/** `text` with a space inserted wherever a wide blank gap lies between two characters (positions 0..1 of the width). */
export function insertWordSpaces(text: string, positions: number[], spaceProb: number[], blank: Uint8Array, inkHeight: number): string {
  const chars = [...text];
  if (chars.length < 2 || chars.length !== positions.length) return text;
  const spaceAfter = new Set<number>();
  for (let i = 0; i < chars.length - 1; i++) {
    if ((spaceProb[i] ?? 0) >= SPACE_HINT && chars[i] !== ' ' && chars[i + 1] !== ' ' && !cjkContext(chars, i)) spaceAfter.add(i);
  }
  if (inkHeight === 0) return withSpaces(chars, spaceAfter);
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
  if (gaps.length === 0) return withSpaces(chars, spaceAfter);
  // The character pair each gap separates (by the characters' positions along the line).
  const pairOf = (g: { start: number; end: number }) => {
    const centre = (g.start + g.end) / 2 / w;
    for (let k = 0; k < positions.length - 1; k++) if (positions[k]! < centre && positions[k + 1]! > centre) return k;
    return -1;
  };
  const paired = gaps.map((g) => ({ ...g, i: pairOf(g) }));
  // Typical letter gap of this line, from gaps between two Latin letters where there are any.
  const letterGaps = paired.filter((g) => g.i >= 0 && LETTER.test(chars[g.i]!) && LETTER.test(chars[g.i + 1]!));
  const sorted = (letterGaps.length >= 3 ? letterGaps : paired).map((g) => g.end - g.start).sort((a, b) => a - b);
  const typical = sorted[Math.floor(sorted.length / 2)]!;
  // Letter gaps vary with the letters; a word space is well above the line's typical gap,
  // and between a fifth and two fifths of the text height in any common font.
  // CJK glyphs carry wide side bearings and Chinese is set without spaces: only a field-sized gap counts there.
  const latinGap = Math.max(3, Math.min(0.4 * inkHeight, Math.max(0.2 * inkHeight, 2 * typical)));
  // Where the recogniser wrote a space between Latin words itself, it is spacing this line: pixel gaps then add
  // none. Small or blurred print enlarged into the crop opens letter gaps wider than the rule above allows
  // ("Spe ar m an", "do mains") while the recogniser still spaces its words right.
  const recogniserSpaces = chars.some((c, k) => c === ' ' && k > 0 && k < chars.length - 1 && !cjkContext(chars, k));
  const cjkGap = Math.max(6, 0.6 * inkHeight);
  for (const { start, end, i } of paired) {
    if (end - start < latinGap) continue;
    if (i < 0 || chars[i] === ' ' || chars[i + 1] === ' ') continue;
    if (cjkContext(chars, i)) {
      if (end - start >= cjkGap) spaceAfter.add(i);
    } else if (!recogniserSpaces && wordBoundaryShape(chars, i)) spaceAfter.add(i);
  }
  return withSpaces(chars, spaceAfter);
}

function withSpaces(chars: string[], spaceAfter: Set<number>): string {
  let out = '';
  chars.forEach((c, k) => {
    out += c;
    if (spaceAfter.has(k)) out += ' ';
  });
  return out;
}
