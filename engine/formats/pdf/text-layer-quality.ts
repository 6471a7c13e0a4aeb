/**
 * Whether a page's text layer can be trusted. Fonts with broken or missing ToUnicode maps yield
 * private-use code points, U+FFFD, control characters or runs of symbols instead of words; such a
 * page is OCR'd rather than returned as garbage.
 */
export interface TextLayerQuality {
  /** Non-space characters in the text layer. */
  chars: number;
  /** Share of characters that are letters, digits, CJK or ordinary punctuation (0..1). */
  readable: number;
  usable: boolean;
}

const PRIVATE_USE = /[\ue000-\uf8ff\u{f0000}-\u{ffffd}\u{100000}-\u{10fffd}]/u;
const REPLACEMENT_OR_CONTROL = /[\ufffd\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const WORDLIKE = /[\p{L}\p{N}]/u;
const COMMON_PUNCT = /[.,;:!?'"()[\]{}%$€£¥\-–—/\\&*+=<>@#_|~^`·、。，；：！？“”‘’（）《》【】…]/u;

export function assessTextLayer(text: string): TextLayerQuality {
  let chars = 0;
  let good = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 128) {
      // ASCII: whitespace is skipped, controls are unreadable, every printable character is a letter, digit or COMMON_PUNCT.
      if (code === 32 || (code >= 9 && code <= 13)) continue;
      chars++;
      if (code > 32 && code < 127) good++;
      continue;
    }
    if (/\s/.test(ch)) continue;
    chars++;
    if (PRIVATE_USE.test(ch) || REPLACEMENT_OR_CONTROL.test(ch)) continue;
    if (WORDLIKE.test(ch) || COMMON_PUNCT.test(ch)) good++;
  }
  const readable = chars === 0 ? 0 : good / chars;
  // A handful of characters (a page number on a scan) is not a text layer worth keeping on its own.
  const usable = chars >= 3 && readable >= 0.7 && !looksLikeShiftedGlyphIds(text);
  return { chars, readable, usable };
}

/**
 * Fonts without a ToUnicode map often come out as glyph ids read as ASCII: words of symbols and
 * letters with almost no vowels and no spaces. Flag text where nearly no token reads as a word.
 */
function looksLikeShiftedGlyphIds(text: string): boolean {
  const tokens = text.split(/\s+/).filter((t) => t.length >= 3);
  if (tokens.length < 8) return false;
  let wordish = 0;
  const enough = 0.3 * tokens.length;
  for (const t of tokens) {
    if (wordish >= enough) return false;
    if (/[\u3400-\u9fff\uac00-\ud7af\u3040-\u30ff]/.test(t)) wordish++;
    else if (/^[\p{N}.,%$()\-–/:]+$/u.test(t)) wordish++;
    else if (/[aeiouyAEIOUY\u00c0-\u024f\u0400-\u04ff\u0370-\u03ff\u0600-\u06ff\u0900-\u097f]/.test(t) && /^[\p{L}\p{M}\p{N}'’.,;:!?()"“”\-–/%]+$/u.test(t)) wordish++;
  }
  return wordish / tokens.length < 0.3;
}
