import type { BBox } from '../../../../engine/core/geometry.js';
import type { TextLine } from '../../../../engine/core/page.js';

/** A text-layer line as a PDF reader gives it: one run, font size in page pixels. */
export function textLine(text: string, bbox: BBox, fontSize = 20, bold = false): TextLine {
  return { text, bbox, runs: [{ text, bbox, fontSize, bold }], fontSize, bold, source: 'text', confidence: 1 };
}

/** Lines of a column of prose: `n` lines of `width` px from (x, y), `pitch` px apart. */
export function proseLines(words: string, x: number, y: number, width: number, n: number, pitch = 26, fontSize = 20): TextLine[] {
  return Array.from({ length: n }, (_, i) => textLine(`${words} line ${i + 1} of the column with ordinary words`, [x, y + i * pitch, x + width, y + i * pitch + fontSize], fontSize));
}
