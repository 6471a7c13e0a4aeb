import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { BBox, ParseBlock } from '../../api/types.js';
import { PDF_PIXEL_SCALE } from '../viewer/load-document.js';

interface Run {
  text: string;
  box: BBox;
}

/**
 * Text lines of a PDF's text layer, read by pdf.js in the page, as boxes in the engine's PixelSpace. Used to give
 * box-less extraction values a box without sending the document anywhere again (extract inputs stay out of the
 * chat library). Runs on one baseline are joined unless a gap wider than two character heights separates them,
 * so a form's label and value stay apart.
 */
export async function pdfTextLines(pdf: PDFDocumentProxy): Promise<ParseBlock[]> {
  const out: ParseBlock[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const vp = page.getViewport({ scale: PDF_PIXEL_SCALE });
    const content = await page.getTextContent();
    const runs: Run[] = [];
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const [x, y] = [item.transform[4] as number, item.transform[5] as number];
      const h = item.height || Math.hypot(item.transform[2] as number, item.transform[3] as number);
      const r = vp.convertToViewportRectangle([x, y, x + item.width, y + h]) as number[];
      runs.push({ text: item.str, box: [Math.min(r[0]!, r[2]!), Math.min(r[1]!, r[3]!), Math.max(r[0]!, r[2]!), Math.max(r[1]!, r[3]!)] });
    }
    for (const line of joinRuns(runs)) {
      out.push({
        block_id: out.length + 1,
        text: line.text,
        type: 'Text',
        system: 'PixelSpace',
        page_number: n,
        layout_width: Math.round(vp.width),
        layout_height: Math.round(vp.height),
        composing_blocks: [{ system: 'PixelSpace', coordinates: line.box, page_number: n, layout_width: Math.round(vp.width), layout_height: Math.round(vp.height) }],
      });
    }
  }
  return out;
}

export function joinRuns(runs: Run[]): Run[] {
  const sorted = [...runs].sort((a, b) => (a.box[1] + a.box[3]) / 2 - (b.box[1] + b.box[3]) / 2 || a.box[0] - b.box[0]);
  const lines: Run[][] = [];
  for (const r of sorted) {
    const mid = (r.box[1] + r.box[3]) / 2;
    const line = lines.find((l) => {
      const last = l[l.length - 1]!;
      return Math.abs((last.box[1] + last.box[3]) / 2 - mid) < (last.box[3] - last.box[1]) / 2;
    });
    if (line) line.push(r);
    else lines.push([r]);
  }
  const out: Run[] = [];
  for (const line of lines) {
    line.sort((a, b) => a.box[0] - b.box[0]);
    let cur: Run | null = null;
    for (const r of line) {
      const height = r.box[3] - r.box[1];
      if (cur && r.box[0] - cur.box[2] <= 2 * height) {
        cur = { text: cur.text + r.text, box: [cur.box[0], Math.min(cur.box[1], r.box[1]), Math.max(cur.box[2], r.box[2]), Math.max(cur.box[3], r.box[3])] };
      } else {
        if (cur) out.push(cur);
        cur = { ...r };
      }
    }
    if (cur) out.push(cur);
  }
  return out;
}
