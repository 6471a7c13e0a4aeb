import type { BBox, MaskedRegion, ParseBlock, ParseNode, ParseResult } from '../../api/types.js';

/** One box drawn over a page: a node's composing block, a block, an extracted field hit or a masked region. */
export interface OverlayBox {
  key: string;
  page: number;
  bbox: BBox;
  /** node/block type, field name or mask category */
  type: string;
  text: string;
  /** page size the coordinates refer to, when the result says it */
  layoutWidth?: number;
  layoutHeight?: number;
  json: unknown;
}

export function boxesOfParseResult(r: ParseResult): OverlayBox[] {
  const out: OverlayBox[] = [];
  for (const n of r.nodes ?? []) out.push(...boxesOfItem(`n${n.id}`, n));
  for (const b of r.blocks ?? []) out.push(...boxesOfItem(`b${b.block_id}`, b));
  return out;
}

function boxesOfItem(key: string, item: ParseNode | ParseBlock): OverlayBox[] {
  return item.composing_blocks.map((cb, i) => ({
    key: `${key}.${i}`,
    page: cb.page_number,
    bbox: cb.coordinates,
    type: item.type,
    text: item.text,
    layoutWidth: cb.layout_width,
    layoutHeight: cb.layout_height,
    json: item,
  }));
}

export function boxesOfMaskRegions(regions: MaskedRegion[]): OverlayBox[] {
  return regions.map((r, i) => ({ key: `m${i}`, page: r.page_number, bbox: r.bbox, type: r.category, text: r.category, json: r }));
}

const TYPE_COLOURS: Record<string, string> = {
  Title: '#d9480f',
  Text: '#1971c2',
  Table: '#2f9e44',
  Figure: '#9c36b5',
};
const PALETTE = ['#e8590c', '#0c8599', '#5f3dc4', '#c2255c', '#2b8a3e', '#1864ab', '#a61e4d', '#5c940d', '#862e9c', '#d6336c'];

/** Parse types have fixed colours; field names and mask categories get a stable colour from their name. */
export function colourOf(type: string): string {
  const fixed = TYPE_COLOURS[type];
  if (fixed) return fixed;
  let h = 0;
  for (const ch of type) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[h % PALETTE.length]!;
}
