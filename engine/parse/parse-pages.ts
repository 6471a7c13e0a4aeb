import type { BBox } from '../core/geometry.js';
import type { DocumentPages, Page, TableGrid, TextLine } from '../core/page.js';
import type { FurnitureItem, NodeType } from '../core/results.js';
import type { LayoutModel, LayoutRegion } from '../vision/layout/layout-model.js';
import { layoutContext, RulesLayout } from '../vision/layout/rules-layout.js';
import { captionKind } from '../vision/layout/heading-rules.js';
import { restoreCjkPunctuation } from '../vision/layout/cjk-punctuation.js';
import { LearnedLayout, learnedFurniture } from '../vision/layout/learned/learned-layout.js';
import { findFurniture } from './find-furniture.js';
import { tableText } from './table-text.js';

/** One typed region of a document, with its page: what extract and chat reuse. */
export interface ParsedRegion {
  type: NodeType;
  pageNumber: number;
  pageWidth: number;
  pageHeight: number;
  bbox: BBox;
  /** For a table: its Markdown (HTML when cells span). */
  text: string;
  lines: TextLine[];
  fontSize: number;
  /** Heading rank of a title: lower is higher in the section hierarchy (source blocks: their level 1..6). */
  level?: number;
  table?: TableGrid;
  caption: string;
  note: string;
}

export interface ParsedDocument {
  regions: ParsedRegion[];
  furniture: FurnitureItem[];
  pages: { pageNumber: number; width: number; height: number }[];
}

const defaultLayout = new RulesLayout();
/** Pages carrying a learned layout model's detections (vision/layout/learned) are analysed with them. */
const learnedLayout = new LearnedLayout(defaultLayout);

function fromSourceBlocks(page: Page, furniture: FurnitureItem[]): ParsedRegion[] {
  const out: ParsedRegion[] = [];
  for (const b of page.sourceBlocks ?? []) {
    if (b.furniture) {
      furniture.push({ kind: page.height && b.bbox[1] > page.height / 2 ? 'footer' : 'header', text: b.text, page_number: page.pageNumber, coordinates: b.bbox });
      continue;
    }
    const region: ParsedRegion = {
      type: b.type,
      pageNumber: page.pageNumber,
      pageWidth: page.width,
      pageHeight: page.height,
      bbox: b.bbox,
      // Chinese text keeps its printed full-width punctuation, as on pages read by layout (readers NFKC every text).
      text: b.table ? tableText(b.table) : restoreCjkPunctuation(b.text),
      lines: [],
      fontSize: 0,
      caption: b.caption ?? '',
      note: '',
    };
    if (b.type === 'Title') region.level = b.level ?? 1;
    if (b.table) region.table = b.table;
    out.push(region);
  }
  return out;
}

function gapBetween(a: BBox, b: BBox): number {
  const dy = Math.max(0, Math.max(a[1], b[1]) - Math.min(a[3], b[3]));
  const dx = Math.max(0, Math.max(a[0], b[0]) - Math.min(a[2], b[2]));
  return Math.hypot(dx, dy);
}

/** Captions and notes join the nearest table or figure on their page (a "Table n" caption prefers a table). */
function attachCaptions(regions: LayoutRegion[], page: Page): LayoutRegion[] {
  const targets = regions.filter((r) => r.type === 'Table' || r.type === 'Figure');
  const captions = new Map<LayoutRegion, string[]>();
  const notes = new Map<LayoutRegion, string[]>();
  const absorbed = new Set<LayoutRegion>();
  const reach = page.height * 0.12;
  for (const r of regions) {
    if (!r.role) continue;
    const want = r.role === 'caption' ? captionKind(r.text) : null;
    let best: LayoutRegion | null = null;
    let bestScore = Infinity;
    for (const t of targets) {
      const d = gapBetween(r.bbox, t.bbox);
      if (d > reach) continue;
      if (r.role === 'note' && r.bbox[1] < t.bbox[1]) continue;
      const typeMatch = want === null || (want === 'table') === (t.type === 'Table');
      const score = d + (typeMatch ? 0 : reach);
      if (score < bestScore) [best, bestScore] = [t, score];
    }
    if (!best) continue;
    const map = r.role === 'caption' ? captions : notes;
    map.set(best, [...(map.get(best) ?? []), r.text]);
    absorbed.add(r);
  }
  return regions
    .filter((r) => !absorbed.has(r))
    .map((r) => Object.assign(r, { caption: (captions.get(r) ?? []).join(' '), note: (notes.get(r) ?? []).join(' ') }));
}

/**
 * Every page of a document as typed regions in reading order, furniture set apart. Pages that state their
 * structure (DOCX, HTML, spreadsheets, slides) are taken as stated; the others go through the layout model.
 */
export function parsePages(doc: DocumentPages, layout: LayoutModel = defaultLayout): ParsedDocument {
  const furnitureLines = findFurniture(doc.pages);
  const furniture: FurnitureItem[] = [...furnitureLines.values()];
  const ctx = layoutContext(doc.pages.flatMap((p) => (p.sourceBlocks ? [] : p.lines.filter((l) => !furnitureLines.has(l)))));
  const regions: ParsedRegion[] = [];
  const analyser = layout === defaultLayout && doc.pages.some((p) => p.layoutDetections) ? learnedLayout : layout;
  for (const page of doc.pages) {
    if (page.sourceBlocks) {
      regions.push(...fromSourceBlocks(page, furniture));
      continue;
    }
    const content: Page = { ...page, lines: page.lines.filter((l) => !furnitureLines.has(l)) };
    if (analyser === learnedLayout) furniture.push(...learnedFurniture(content));
    const found = attachCaptions(analyser.analysePage(content, ctx), page) as (LayoutRegion & { caption: string; note: string })[];
    for (const r of found) {
      const region: ParsedRegion = {
        type: r.type,
        pageNumber: page.pageNumber,
        pageWidth: page.width,
        pageHeight: page.height,
        bbox: r.bbox,
        text: r.table ? tableText(r.table) : r.text,
        lines: r.lines,
        fontSize: r.fontSize,
        caption: r.caption,
        note: r.note,
      };
      if (r.level !== undefined) region.level = r.level;
      if (r.table) region.table = r.table;
      regions.push(region);
    }
  }
  furniture.sort((a, b) => a.page_number - b.page_number || a.coordinates[1] - b.coordinates[1]);
  return { regions, furniture, pages: doc.pages.map((p) => ({ pageNumber: p.pageNumber, width: p.width, height: p.height })) };
}
