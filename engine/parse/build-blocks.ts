import type { ParseBlock } from '../core/results.js';
import { cellsOut, composingBlock } from './composing-blocks.js';
import type { ParsedDocument } from './parse-pages.js';

/** lite: one block per region, in reading order, nothing merged. Captions ride on their table or figure. */
export function buildBlocks(doc: ParsedDocument): ParseBlock[] {
  return doc.regions.map((r, i) => {
    const cb = composingBlock(r);
    const block: ParseBlock = {
      block_id: i + 1,
      text: r.type === 'Figure' && !r.text ? r.caption : r.text,
      type: r.type,
      system: 'PixelSpace',
      composing_blocks: [cb],
      page_number: r.pageNumber,
      layout_width: cb.layout_width,
      layout_height: cb.layout_height,
    };
    if (r.table) block.cells = cellsOut(r.table.cells.map((c) => ({ ...c, pageNumber: r.pageNumber })));
    return block;
  });
}
