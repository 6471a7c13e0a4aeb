import { bboxUnion, type BBox } from '../../core/geometry.js';
import type { RuleLine, TextLine } from '../../core/page.js';
import { captionKind } from './heading-rules.js';

function ruleBox(r: RuleLine): BBox {
  return [Math.min(r.x1, r.x2), Math.min(r.y1, r.y2), Math.max(r.x1, r.x2), Math.max(r.y1, r.y2)];
}

/**
 * Vector drawings (diagrams, charts drawn as boxes and lines) announced by a "Figure n" caption: the ruling
 * lines stacked right above the caption (or right below it), within the caption's column, make the figure's box.
 * Looking only next to a caption keeps this cheap on pages with thousands of table rules.
 */
export function captionedGraphics(lines: readonly TextLine[], rules: readonly RuleLine[], pageWidth: number, pageHeight: number, known: readonly BBox[]): BBox[] {
  if (rules.length < 6) return [];
  const out: BBox[] = [];
  for (const cap of lines.filter((l) => captionKind(l.text) === 'figure')) {
    const near = (b: BBox): boolean => Math.max(b[1] - cap.bbox[3], cap.bbox[1] - b[3]) < pageHeight * 0.05 && Math.min(b[2], cap.bbox[2]) > Math.max(b[0], cap.bbox[0]) - pageWidth * 0.1;
    if (known.some(near)) continue;
    const x1 = cap.bbox[0] - pageWidth * 0.15;
    const x2 = cap.bbox[2] + pageWidth * 0.15;
    const boxes = rules.map(ruleBox).filter((b) => b[0] >= x1 && b[2] <= x2);
    for (const dir of ['above', 'below'] as const) {
      const side = boxes
        .filter((b) => (dir === 'above' ? b[3] <= cap.bbox[1] + 2 : b[1] >= cap.bbox[3] - 2))
        .sort((a, b) => (dir === 'above' ? b[3] - a[3] : a[1] - b[1]));
      let edge = dir === 'above' ? cap.bbox[1] : cap.bbox[3];
      const taken: BBox[] = [];
      for (const b of side) {
        const gap = dir === 'above' ? edge - b[3] : b[1] - edge;
        if (gap > pageHeight * 0.06) break;
        taken.push(b);
        edge = dir === 'above' ? Math.min(edge, b[1]) : Math.max(edge, b[3]);
      }
      if (taken.length < 6) continue;
      const box = bboxUnion(taken);
      if (box[3] - box[1] < pageHeight * 0.04 || box[2] - box[0] < pageWidth * 0.1) continue;
      out.push(box);
      break;
    }
  }
  return out;
}
