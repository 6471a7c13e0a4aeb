import { mergeBoxesWhile, type BBox } from '../../core/geometry.js';
import type { TextLine } from '../../core/page.js';

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function xOverlap(a: BBox, b: BBox): number {
  return Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
}

/** A line that reads as a label inside a graphic (axis tick, legend entry, callout), not as running text. */
function isLabel(l: TextLine, width: number): boolean {
  return [...l.text.trim()].length <= 14 && l.bbox[2] - l.bbox[0] < 0.35 * width;
}

/**
 * Figures on a scanned page, where OCR gives text lines but no image regions: a tall blank band inside a
 * column, with text right above and right below it (a picture or chart sits between two paragraphs, or
 * between a paragraph and its caption). Short label lines (axis ticks, legends) may lie inside the band;
 * running text may not. The band's box, trimmed by about half a line at top and bottom, is the figure.
 * `blocks` are regions already found (tables) that count as occupied space.
 */
export function blankBandFigures(lines: readonly TextLine[], blocks: readonly BBox[], pageWidth: number, pageHeight: number): BBox[] {
  if (lines.length < 2) return [];
  const lh = median(lines.map((l) => l.bbox[3] - l.bbox[1])) || 12;
  const minHeight = Math.max(5 * lh, pageHeight * 0.08);
  const minWidth = pageWidth * 0.15;
  const occupied: BBox[] = [...lines.map((l) => l.bbox), ...blocks];
  const farSide: BBox[] = [...lines.filter((l) => !isLabel(l, pageWidth)).map((l) => l.bbox), ...blocks];
  const out: BBox[] = [];
  for (const a of lines) {
    if (isLabel(a, pageWidth)) continue;
    // The nearest line (or block) below that shares most of a's width: the text on the far side of the gap.
    let below: BBox | null = null;
    for (const b of farSide) {
      if (b[1] < a.bbox[3] - 2) continue;
      const ov = xOverlap(a.bbox, b);
      if (ov < 0.5 * Math.min(a.bbox[2] - a.bbox[0], b[2] - b[0])) continue;
      if (!below || b[1] < below[1]) below = b;
    }
    if (!below) continue;
    const gap = below[1] - a.bbox[3];
    if (gap < minHeight) continue;
    const x1 = Math.min(a.bbox[0], below[0]);
    const x2 = Math.max(a.bbox[2], below[2]);
    if (x2 - x1 < minWidth) continue;
    const band: BBox = [x1, a.bbox[3], x2, below[1]];
    // Nothing but labels inside the band: running text or a block there means it is no blank band.
    const inside = occupied.filter((o) => o !== below && o !== a.bbox && xOverlap(o, band) > 0 && Math.min(o[3], band[3]) - Math.max(o[1], band[1]) > 0);
    const blocked = inside.some((o) => {
      const line = lines.find((l) => l.bbox === o);
      return !line || !isLabel(line, x2 - x1);
    });
    if (blocked) continue;
    // Labels are sparse on a graphic; a narrow column of short lines fills its band with ink.
    const inkArea = inside.reduce((sum, o) => sum + (o[2] - o[0]) * (o[3] - o[1]), 0);
    if (inkArea > 0.12 * (band[2] - band[0]) * (band[3] - band[1])) continue;
    const pad = 0.6 * lh;
    const fig: BBox = [x1, band[1] + pad, x2, band[3] - pad];
    if (!out.some((f) => xOverlap(f, fig) > 0 && Math.min(f[3], fig[3]) > Math.max(f[1], fig[1]))) out.push(fig);
  }
  return joinPanels(out, 2 * lh);
}

/** Bands that touch across a narrow gap and share most of their height are panels of one figure. */
function joinPanels(figs: BBox[], reach: number): BBox[] {
  return mergeBoxesWhile(figs, (a, b) => {
    const yOv = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
    const dx = Math.max(a[0], b[0]) - Math.min(a[2], b[2]);
    return dx < reach && yOv > 0.5 * Math.min(a[3] - a[1], b[3] - b[1]);
  });
}
