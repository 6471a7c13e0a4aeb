import { bboxArea, bboxIntersection, bboxUnion, type BBox } from '../../../core/geometry.js';
import type { LayoutDetection, Page, TextLine } from '../../../core/page.js';
import type { FurnitureItem } from '../../../core/results.js';
import { centerInside } from '../../table/text-pieces.js';
import { groupParagraphs, paragraphText } from '../group-paragraphs.js';
import type { LayoutContext, LayoutModel, LayoutRegion } from '../layout-model.js';
import { headingLevel } from '../rules-layout.js';
import { splitOcrLinesAtGutters } from '../split-ocr-columns.js';
import { joinVerticalText } from '../vertical-text.js';
import { xyCut } from '../xy-cut.js';
import { normaliseLabel } from './label-types.js';
import { tableInBox } from './table-in-box.js';

/** In vote mode the model decides a region's type only from this score up; below it the rules stand. */
export const VOTE_MIN_SCORE = 0.6;

function dominantSize(lines: readonly TextLine[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(Math.round(l.fontSize * 2) / 2, (chars.get(Math.round(l.fontSize * 2) / 2) ?? 0) + l.text.length);
  let best = 0;
  let most = -1;
  for (const [k, n] of chars) if (n > most) [best, most] = [k, n];
  return best;
}

function readingSort(lines: readonly TextLine[]): TextLine[] {
  return [...lines].sort((a, b) => {
    const overlap = Math.min(a.bbox[3], b.bbox[3]) - Math.max(a.bbox[1], b.bbox[1]);
    const h = Math.min(a.bbox[3] - a.bbox[1], b.bbox[3] - b.bbox[1]);
    return overlap > 0.5 * h ? a.bbox[0] - b.bbox[0] : a.bbox[1] - b.bbox[1];
  });
}

/** The page's lines as the rules see them (vertical text joined, OCR lines cut at column gutters). */
function pageLines(page: Page): TextLine[] {
  return splitOcrLinesAtGutters(joinVerticalText(page.lines.filter((l) => l.text.trim() !== '')), page.width);
}

/**
 * The detection a line belongs to: among the boxes holding its centre, the highest score (a smaller box on a tie);
 * failing that, a box covering at least half of the line.
 */
export function ownerOf(line: TextLine, dets: readonly LayoutDetection[]): LayoutDetection | null {
  let best: LayoutDetection | null = null;
  for (const d of dets) {
    if (!centerInside(line.bbox, d.bbox, 2)) continue;
    if (!best || d.score > best.score || (d.score === best.score && bboxArea(d.bbox) < bboxArea(best.bbox))) best = d;
  }
  if (best) return best;
  const area = Math.max(1, bboxArea(line.bbox));
  for (const d of dets) {
    if (bboxIntersection(line.bbox, d.bbox) >= 0.5 * area && (!best || d.score > best.score)) best = d;
  }
  return best;
}

function detectionsOf(page: Page): LayoutDetection[] {
  const dets = page.layoutDetections ?? [];
  return page.layoutMode === 'vote' ? dets.filter((d) => d.score >= VOTE_MIN_SCORE) : dets;
}

function furnitureKind(d: LayoutDetection, text: string, page: Page): FurnitureItem['kind'] {
  const label = normaliseLabel(d.label);
  if (label === 'page_number' || label === 'number' || /^[\d\s\-–—/|.]+$/.test(text)) return 'page_number';
  if (label.includes('footer')) return 'footer';
  if (label.includes('header')) return 'header';
  return (d.bbox[1] + d.bbox[3]) / 2 > page.height / 2 ? 'footer' : 'header';
}

/** Lines the model put in header, footer or page-number boxes, one item per box. */
export function learnedFurniture(page: Page): FurnitureItem[] {
  if (!page.layoutDetections) return [];
  const dets = detectionsOf(page);
  const byDet = new Map<LayoutDetection, TextLine[]>();
  for (const l of pageLines(page)) {
    const d = ownerOf(l, dets);
    if (d?.role === 'furniture') byDet.set(d, [...(byDet.get(d) ?? []), l]);
  }
  return [...byDet].map(([d, ls]) => {
    const text = paragraphText(readingSort(ls));
    return { kind: furnitureKind(d, text, page), text, page_number: page.pageNumber, coordinates: bboxUnion(ls.map((l) => l.bbox)) };
  });
}

function textRegion(lines: TextLine[], d: LayoutDetection | null, ctx: LayoutContext, box?: BBox): LayoutRegion {
  const sorted = readingSort(lines);
  const list = d !== null && normaliseLabel(d.label).includes('list');
  const text = list ? groupParagraphs(sorted).map(paragraphText).join('\n') : paragraphText(sorted);
  const fontSize = dominantSize(sorted);
  const bbox = bboxUnion([...sorted.map((l) => l.bbox), ...(box ? [box] : [])]);
  const region: LayoutRegion = { type: 'Text', bbox, lines: sorted, text, fontSize };
  if (d?.type === 'Title') {
    region.type = 'Title';
    region.level = d.level ?? headingLevel(text, fontSize, ctx);
  } else if (d?.role === 'caption' || d?.role === 'note') region.role = d.role;
  return region;
}

/** A rules region with the type (and caption/note role) a detection gives it; its lines and text stay. */
function retyped(r: LayoutRegion, d: LayoutDetection, ctx: LayoutContext): LayoutRegion {
  const out: LayoutRegion = { ...r, type: d.type === 'Title' ? 'Title' : 'Text' };
  delete out.level;
  delete out.role;
  if (d.type === 'Title') out.level = r.type === 'Title' && r.level !== undefined && d.level === undefined ? r.level : (d.level ?? headingLevel(r.text, r.fontSize, ctx));
  else if (d.role === 'caption' || d.role === 'note') out.role = d.role;
  return out;
}

function regionFor(d: LayoutDetection, lines: TextLine[], page: Page, ctx: LayoutContext): LayoutRegion | null {
  if (d.type === 'Figure') return { type: 'Figure', bbox: d.bbox, lines: readingSort(lines), text: '', fontSize: dominantSize(lines) };
  if (lines.length === 0) return null;
  if (d.type === 'Table') {
    const table = tableInBox(page, lines, d.bbox);
    if (table) return { type: 'Table', bbox: table.bbox, lines, text: '', table, fontSize: dominantSize(lines) };
  }
  return textRegion(lines, d, ctx, d.bbox);
}

/** Regions in reading order: columns left to right, then top to bottom (XY-cut over the region boxes). */
function inReadingOrder(regions: LayoutRegion[], page: Page, ctx: LayoutContext): LayoutRegion[] {
  const em = ctx.bodyFontSize || 12;
  const leaves = xyCut(regions, { minColumnGap: Math.max(0.8 * em, page.width * 0.01), minBandGap: Math.max(2, 0.3 * em) });
  return leaves.flatMap((leaf) => [...leaf].sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]));
}

function mostlyInside(inner: BBox, outer: BBox): boolean {
  return bboxIntersection(inner, outer) >= 0.5 * Math.max(1, bboxArea(inner));
}

/**
 * A learned layout model's answer for a page: its detections (set on the page before parse by detect-layout.ts)
 * become the regions. `replace`: every line goes to the detection holding it; lines in no box, and the page's
 * images outside every box, go through the rules. `vote`: the rules find the regions, and where the model is sure
 * (score >= VOTE_MIN_SCORE) it decides their type and claims whole tables and figures. Pages without detections
 * are the rules' alone. Header, footer and page-number boxes leave the tree (see learnedFurniture).
 */
export class LearnedLayout implements LayoutModel {
  readonly name = 'learned';

  constructor(private readonly rules: LayoutModel) {}

  analysePage(page: Page, ctx: LayoutContext): LayoutRegion[] {
    if (!page.layoutDetections) return this.rules.analysePage(page, ctx);
    return page.layoutMode === 'vote' ? this.vote(page, ctx) : this.replace(page, ctx);
  }

  private replace(page: Page, ctx: LayoutContext): LayoutRegion[] {
    const dets = detectionsOf(page);
    const byDet = new Map<LayoutDetection, TextLine[]>(dets.map((d) => [d, []]));
    const leftover: TextLine[] = [];
    for (const l of pageLines(page)) {
      const d = ownerOf(l, dets);
      if (d) byDet.get(d)!.push(l);
      else leftover.push(l);
    }
    const regions: LayoutRegion[] = [];
    for (const [d, ls] of byDet) {
      if (d.role === 'furniture') continue;
      const r = regionFor(d, ls, page, ctx);
      if (r) regions.push(r);
    }
    const boxes = dets.map((d) => d.bbox);
    if (leftover.length > 0 || page.images.some((i) => !boxes.some((b) => mostlyInside(i.bbox, b)))) {
      const rest: Page = {
        ...page,
        lines: leftover,
        images: page.images.filter((i) => !boxes.some((b) => mostlyInside(i.bbox, b))),
        rules: page.rules.filter((r) => !dets.some((d) => d.type === 'Table' && centerInside([r.x1, r.y1, r.x2, r.y2], d.bbox, 2))),
      };
      regions.push(...this.rules.analysePage(rest, ctx));
    }
    return inReadingOrder(regions, page, ctx);
  }

  private vote(page: Page, ctx: LayoutContext): LayoutRegion[] {
    const dets = detectionsOf(page);
    const owner = new Map<TextLine, LayoutDetection | null>();
    // Lines in sure header/footer/page-number boxes are furniture (learnedFurniture); the rules see the rest.
    const lines = pageLines(page).filter((l) => {
      const d = ownerOf(l, dets);
      owner.set(l, d);
      return d?.role !== 'furniture';
    });
    let regions = this.rules.analysePage({ ...page, lines }, ctx);
    const ownerOfLine = (l: TextLine): LayoutDetection | null => (owner.has(l) ? owner.get(l)! : ownerOf(l, dets));
    // Tables and figures the model is sure of claim the regions that lie inside them.
    for (const d of [...dets].sort((a, b) => b.score - a.score)) {
      if (d.type !== 'Table' && d.type !== 'Figure') continue;
      const inside = regions.filter((r) => !r.role && mostlyInside(r.bbox, d.bbox));
      if (d.type === 'Table' && inside.length === 1 && inside[0]!.type === 'Table') continue;
      if (d.type === 'Figure' && inside.length === 1 && inside[0]!.type === 'Figure') continue;
      if (inside.length === 0 && (d.type === 'Table' || regions.some((r) => bboxIntersection(r.bbox, d.bbox) > 0))) continue;
      const claimed = inside.flatMap((r) => r.lines);
      const made = regionFor(d, claimed, page, ctx);
      if (!made) continue;
      // A region of its own goes where reading reaches it: before the first region below its top in its column.
      const below = regions.findIndex((r) => r.bbox[1] >= made.bbox[1] && Math.min(r.bbox[2], made.bbox[2]) > Math.max(r.bbox[0], made.bbox[0]));
      const first = inside.length ? regions.indexOf(inside[0]!) : below >= 0 ? below : regions.length;
      const next: LayoutRegion[] = [];
      regions.forEach((r, i) => {
        if (i === first) next.push(made);
        if (!inside.includes(r)) next.push(r);
      });
      if (first === regions.length) next.push(made);
      regions = next;
    }
    // The other regions take the type of the detection most of their lines are in.
    return regions.map((r) => {
      if (r.type === 'Figure' || r.lines.length === 0) return r;
      const votes = new Map<LayoutDetection, number>();
      for (const l of r.lines) {
        const d = ownerOfLine(l);
        if (d) votes.set(d, (votes.get(d) ?? 0) + l.text.length);
      }
      const total = r.lines.reduce((s, l) => s + l.text.length, 0);
      const [d, n] = [...votes].sort((a, b) => b[1] - a[1])[0] ?? [null, 0];
      if (!d || n < 0.5 * total || d.type === 'Figure') return r;
      if (r.type === 'Table') return d.type === 'Table' ? r : textRegion(r.lines, d, ctx);
      if (d.type === 'Table') return r;
      return retyped(r, d, ctx);
    });
  }
}
