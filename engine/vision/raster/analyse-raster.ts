import type { RgbaImage } from '../../core/image.js';
import type { ImageRegion, RuleLine, TextLine } from '../../core/page.js';
import { eraseRules } from './erase-rules.js';
import { findGraphics } from './find-graphics.js';
import { findRulingLines } from './find-ruling-lines.js';
import { inkMask } from './ink-mask.js';

/** Pages up to this many pixels are analysed at full resolution; larger ones at 2x2 (3x3...) pixels per cell. */
const FULL_RES_PIXELS = 5_000_000;

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * What the pixels of a page image show besides text: ruling lines (table borders, separators) and graphics
 * regions (photos, charts, diagrams, logos), in the image's pixels. `lines` are the page's text lines (OCR)
 * in the same pixels: their ink is text, not graphics, and strokes inside them are letters, not rules.
 */
export function analyseRaster(image: RgbaImage, lines: readonly TextLine[]): { rules: RuleLine[]; images: ImageRegion[] } {
  const { width, height } = image;
  if (width < 16 || height < 16) return { rules: [], images: [] };
  const text = lines.filter((l) => l.text.trim() !== '');
  const lh = median(text.map((l) => l.bbox[3] - l.bbox[1])) || Math.max(8, height * 0.012);
  const scale = Math.max(1, Math.ceil(Math.sqrt((width * height) / FULL_RES_PIXELS)));
  const mask = inkMask(image, scale);
  const { solid, dashed } = findRulingLines(mask, {
    minLengthH: Math.max(2.5 * lh, 0.025 * width),
    minLengthV: Math.max(2 * lh, 0.015 * height),
    maxThickness: Math.max(5, 0.2 * lh),
    maxBarDepth: 2.5 * lh,
    // Dashes closer than the blank between two text lines: a column of letters must not read as a dotted rule.
    maxDashGap: Math.min(8, 0.3 * lh),
  });
  // Strokes that lie inside a text line are letters (a long dash, the bar of a large glyph), not rules; a
  // dashed rule crosses no text at all (gaps between letters can line up like dashes).
  const rules = [...solid.filter((r) => !insideText(r, text)), ...dashed.filter((r) => !crossesText(r, text))];
  const found = [...solid, ...dashed];
  eraseRules(mask, found);
  const images = findGraphics(mask, text, { lineHeight: lh, pageWidth: width, pageHeight: height });
  return { rules: rules.map(roundRule), images };
}

/**
 * A stroke is part of the text when it runs along the middle of text lines (a long dash, strike-through, the
 * bar of a large glyph, letters run together on a coarse scan): lines whose middle band holds it cover most of
 * its length.
 */
function insideText(r: RuleLine, text: readonly TextLine[]): boolean {
  const horizontal = Math.abs(r.x2 - r.x1) >= Math.abs(r.y2 - r.y1);
  const [a1, a2] = horizontal ? [Math.min(r.x1, r.x2), Math.max(r.x1, r.x2)] : [Math.min(r.y1, r.y2), Math.max(r.y1, r.y2)];
  const across = horizontal ? (r.y1 + r.y2) / 2 : (r.x1 + r.x2) / 2;
  let covered = 0;
  for (const l of text) {
    const [x1, y1, x2, y2] = l.bbox;
    if (horizontal) {
      const inset = 0.12 * (y2 - y1);
      if (across < y1 + inset || across > y2 - inset) continue;
      covered += Math.max(0, Math.min(a2, x2) - Math.max(a1, x1));
    } else {
      // A vertical stroke in a line is a letter's stem: it lies within the line's height.
      if (across < x1 || across > x2 || a1 < y1 - 0.2 * (y2 - y1) || a2 > y2 + 0.2 * (y2 - y1)) continue;
      covered += a2 - a1;
    }
  }
  return covered >= 0.6 * (a2 - a1);
}

/** The stroke passes through the inside of a text line's box. */
function crossesText(r: RuleLine, text: readonly TextLine[]): boolean {
  const horizontal = Math.abs(r.x2 - r.x1) >= Math.abs(r.y2 - r.y1);
  return text.some((l) => {
    const [x1, y1, x2, y2] = l.bbox;
    const h = y2 - y1;
    if (horizontal) {
      const y = (r.y1 + r.y2) / 2;
      return y > y1 + 0.2 * h && y < y2 - 0.2 * h && Math.min(x2, Math.max(r.x1, r.x2)) - Math.max(x1, Math.min(r.x1, r.x2)) > h;
    }
    const x = (r.x1 + r.x2) / 2;
    return x > x1 + 2 && x < x2 - 2 && Math.min(y2, Math.max(r.y1, r.y2)) - Math.max(y1, Math.min(r.y1, r.y2)) > 0.5 * h;
  });
}

function roundRule(r: RuleLine): RuleLine {
  const q = (v: number): number => Math.round(v * 10) / 10;
  return { x1: q(r.x1), y1: q(r.y1), x2: q(r.x2), y2: q(r.y2), width: q(r.width) };
}
