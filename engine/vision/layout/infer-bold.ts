import type { TextLine } from '../../core/page.js';

const BOLD_FONT = /(bold|black|heavy|semibold|demibold|demi|medium|medi\b|-medi|-b$|,b$|\bbd\b|w[6-9]\b|cmbx|hei|黑)/i;

/** A line set in a heavy face: the reader's flag, or every run's font name says bold (medium, black, CMBX, 黑体). */
export function isBoldLine(line: TextLine): boolean {
  if (line.bold) return true;
  const runs = line.runs.filter((r) => r.text.trim() !== '');
  return runs.length > 0 && runs.every((r) => r.bold || (r.fontName !== undefined && BOLD_FONT.test(r.fontName.replace(/^[A-Z]{6}\+/, ''))));
}

export function withInferredBold(lines: readonly TextLine[]): TextLine[] {
  return lines.map((l) => (l.bold || !isBoldLine(l) ? l : { ...l, bold: true }));
}
