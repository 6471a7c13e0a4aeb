import { bboxArea, bboxIntersection, bboxUnion, type BBox } from '../../core/geometry.js';
import type { Page, TextLine } from '../../core/page.js';
import { cjkRatio, isCjk } from '../../core/text.js';
import { detectTables } from '../table/detect-tables.js';
import { centerInside, splitLineIntoPieces } from '../table/text-pieces.js';
import { withInferredBold } from './infer-bold.js';
import { splitOcrLinesAtGutters } from './split-ocr-columns.js';
import { captionedGraphics } from './caption-graphics.js';
import { blankBandFigures } from './blank-figures.js';
import { joinVerticalText } from './vertical-text.js';
import { dropDuplicateOcrLines } from './duplicate-lines.js';
import { groupParagraphs, isCentred, isHanLine, isRunInLabel, paragraphText } from './group-paragraphs.js';
import { captionKind, endsLikeSentence, headingNumberDepth, isNoteText, startsListItem } from './heading-rules.js';
import type { LayoutContext, LayoutModel, LayoutRegion } from './layout-model.js';
import { xyCut } from './xy-cut.js';

type FlowItem =
  | { kind: 'line'; bbox: BBox; line: TextLine }
  | { kind: 'region'; bbox: BBox; region: LayoutRegion };

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * An image region with running text set over it (a tinted box behind a paragraph, a banner, a page background
 * the raster analysis took for a picture) is no figure: a figure holds at most a few labels. Running text here:
 * lines of more than 12 characters, three or more of them covering a twelfth of the box, or any covering a sixth.
 */
export function holdsRunningText(box: BBox, lines: readonly TextLine[]): boolean {
  const area = Math.max(1, bboxArea(box));
  const long = lines.filter((l) => [...l.text.trim()].length > 12 && centerInside(l.bbox, box, 2));
  const cover = long.reduce((sum, l) => sum + bboxArea(l.bbox), 0) / area;
  return (long.length >= 3 && cover >= 0.08) || cover >= 0.16;
}

/** Image regions that are figures: not a full-page background (a scan), not a speck; overlapping ones merged. */
function figureBoxes(page: Page, graphics: BBox[], lines: readonly TextLine[]): BBox[] {
  const pageArea = page.width * page.height;
  const boxes = [...page.images.map((i) => i.bbox), ...graphics].filter((b) => {
    const a = bboxArea(b);
    return a > pageArea * 0.004 && a < pageArea * 0.85 && b[2] - b[0] > 16 && b[3] - b[1] > 16 && !holdsRunningText(b, lines);
  });
  const merged: BBox[] = [];
  for (const b of boxes) {
    // Overlapping regions are one figure, unless their union would reach over running text.
    const hit = merged.findIndex((m) => bboxIntersection(m, b) > 0 && !holdsRunningText(bboxUnion([m, b]), lines));
    if (hit >= 0) merged[hit] = bboxUnion([merged[hit]!, b]);
    else merged.push(b);
  }
  return merged;
}

/** "3.3.2 Plant height", "第三章 概述": a heading number followed by words. */
function isNumberedHeading(text: string): boolean {
  const t = text.trim();
  return headingNumberDepth(t) > 0 && /\p{L}{2,}/u.test(t) && [...t].length <= 50 && !endsLikeSentence(t);
}

/**
 * A chart's axis ticks, category labels, legend and title sit just outside its graphics: short lines near the
 * figure box join it, step by step, unless they belong to a paragraph (a long line right above or below).
 */
function absorbLabels(fig: BBox, lines: readonly TextLine[]): BBox {
  let box: BBox = [...fig];
  const figW = fig[2] - fig[0];
  // A row of axis ticks (dates, numbers) may run the graphic's whole width; a label in words is narrower.
  const isShort = (l: TextLine): boolean => {
    const t = l.text.trim();
    const ticks = !/\p{L}{2,}/u.test(t);
    // A numbered heading ("3.3.2 Plant height") next to a picture is the section's title, no label of it.
    const heading = isNumberedHeading(t);
    return [...t].length <= 40 && l.bbox[2] - l.bbox[0] < (ticks ? 1.2 : 0.5) * figW && !/[.。]$/.test(t) && !captionKind(l.text) && !heading;
  };
  const inParagraph = (l: TextLine): boolean => {
    const lh = l.bbox[3] - l.bbox[1];
    return lines.some((o) => o !== l && !isShort(o) && Math.abs((o.bbox[1] + o.bbox[3]) / 2 - (l.bbox[1] + l.bbox[3]) / 2) < 1.6 * lh && Math.min(o.bbox[2], l.bbox[2]) > Math.max(o.bbox[0], l.bbox[0]));
  };
  const candidates = lines.filter((l) => isShort(l) && !inParagraph(l));
  const taken = new Set<TextLine>();
  // Reach is measured in the labels' usual type size (a vertical line's width, a horizontal one's height), so
  // one large or vertical line does not stretch it.
  const sizes = candidates.map((l) => Math.min(l.bbox[3] - l.bbox[1], l.bbox[2] - l.bbox[0])).sort((a, b) => a - b);
  const labelSize = Math.max(4, sizes[Math.floor(sizes.length / 2)] ?? 0);
  for (let changed = true; changed; ) {
    changed = false;
    for (const l of candidates) {
      if (taken.has(l) || centerInside(l.bbox, box, 2)) continue;
      const lh = labelSize;
      const dx = Math.max(0, box[0] - l.bbox[2], l.bbox[0] - box[2]);
      const dy = Math.max(0, box[1] - l.bbox[3], l.bbox[1] - box[3]);
      // Step by step, but never far from the graphic itself: labels do not march across the page.
      const fx = Math.max(0, fig[0] - l.bbox[2], l.bbox[0] - fig[2]);
      const fy = Math.max(0, fig[1] - l.bbox[3], l.bbox[1] - fig[3]);
      if (dx <= 2.5 * lh && dy <= 2.5 * lh && fx <= 5 * lh && fy <= 5 * lh) {
        box = bboxUnion([box, l.bbox]);
        taken.add(l);
        changed = true;
      }
    }
  }
  // Grown over running text (narrow newspaper columns are all short lines): the graphic's own box stands.
  return holdsRunningText(box, lines) ? fig : box;
}

/**
 * The box a line takes part in column finding with. OCR boxes are grown around the ink and can poke a few
 * pixels across a narrow gutter; they are trimmed at both ends by about half their height.
 */
function cutBox(line: TextLine): BBox {
  if (line.source !== 'ocr') return line.bbox;
  const [x1, y1, x2, y2] = line.bbox;
  const trim = Math.min(0.5 * (y2 - y1), 0.2 * (x2 - x1));
  return [x1 + trim, y1, x2 - trim, y2];
}

/**
 * OCR can cut a large headline into boxes with a gap between words; at that size the gap is no column gutter.
 * Same-row lines of large type (1.5x the page's median line height) closer than 0.8 of their height are joined.
 */
function joinHeadlineFragments(lines: TextLine[]): TextLine[] {
  const hs = lines.map((l) => l.bbox[3] - l.bbox[1]).sort((a, b) => a - b);
  const med = hs[Math.floor(hs.length / 2)] ?? 0;
  const big = lines.filter((l) => l.source === 'ocr' && l.bbox[3] - l.bbox[1] > 1.5 * med).sort((a, b) => a.bbox[0] - b.bbox[0]);
  if (big.length < 2) return lines;
  const joined = new Map<TextLine, TextLine>();
  const gone = new Set<TextLine>();
  for (const a of big) {
    if (gone.has(a)) continue;
    let cur = a;
    for (const b of big) {
      if (b === a || gone.has(b) || b.bbox[0] < cur.bbox[0]) continue;
      const h = Math.min(cur.bbox[3] - cur.bbox[1], b.bbox[3] - b.bbox[1]);
      const ov = Math.min(cur.bbox[3], b.bbox[3]) - Math.max(cur.bbox[1], b.bbox[1]);
      const gap = b.bbox[0] - cur.bbox[2];
      if (ov > 0.6 * h && gap >= -2 && gap < 0.8 * h) {
        const text = isCjk(cur.text.trim().slice(-1)) && isCjk(b.text.trim()[0] ?? '') ? cur.text.trim() + b.text.trim() : `${cur.text.trim()} ${b.text.trim()}`;
        const bbox = bboxUnion([cur.bbox, b.bbox]);
        cur = { ...cur, text, bbox, runs: [{ text, bbox, fontSize: Math.max(cur.fontSize, b.fontSize) }], fontSize: Math.max(cur.fontSize, b.fontSize) };
        gone.add(b);
      }
    }
    if (cur !== a) joined.set(a, cur);
  }
  return lines.filter((l) => !gone.has(l)).map((l) => joined.get(l) ?? l);
}

function dominantSize(lines: readonly TextLine[]): number {
  let best = 0;
  let bestChars = -1;
  const byChars = new Map<number, number>();
  for (const l of lines) {
    const k = Math.round(l.fontSize * 2) / 2;
    byChars.set(k, (byChars.get(k) ?? 0) + l.text.length);
  }
  for (const [k, n] of byChars) if (n > bestChars) [best, bestChars] = [k, n];
  return best;
}

/**
 * Heading rank (lower = higher in the hierarchy): the rank of the heading's font size among the document's
 * heading sizes, plus a tenth per level of its numbering ("2" under "1", "2.1" under "2" at the same size).
 */
export function headingLevel(text: string, fontSize: number, ctx: LayoutContext): number {
  const depth = Math.min(9, headingNumberDepth(text));
  const sizes = ctx.headingSizes;
  let rank = sizes.length + 1;
  for (let i = 0; i < sizes.length; i++) {
    if (fontSize >= sizes[i]! * 0.95) {
      rank = i + 1;
      break;
    }
  }
  return rank + depth / 10;
}

/**
 * The type size of a scanned page's Chinese running text: the median OCR box height of its lines of Chinese
 * characters only, six or more of them (0 with fewer than five such lines). Chinese characters fill their em
 * box, so these heights measure type better than those of Latin lines (ascenders, descenders, brackets).
 */
export function hanBodySize(lines: readonly TextLine[]): number {
  const sizes = lines.filter((l) => l.source === 'ocr' && isHanLine(l) && [...l.text.replace(/\s+/g, '')].length >= 6).map((l) => l.fontSize);
  return sizes.length >= 5 ? median(sizes) : 0;
}

export function isTitleParagraph(lines: readonly TextLine[], text: string, ctx: LayoutContext, opts: { standalone?: boolean; wrappedHead?: boolean; centred?: boolean; hanBody?: number } = {}): boolean {
  if (lines.length > 3 || text.length > 160 || text.length < 1) return false;
  if (!/[\p{L}\p{N}]/u.test(text)) return false;
  if (captionKind(text)) return false;
  // A heading has a word in it ("A 2 C 4", a row of answer choices, has none), and does not break off on a
  // function word ("The following numbered terms and" is the first line of a paragraph).
  if (!/\p{L}{2,}|[\u3400-\u9fff]/u.test(text)) return false;
  // Numbered items one after another on a line ("3.①辽阔无垠 ②膘肥体壮 ③极目远眺", read by OCR as digits) are a
  // row of answers, not a numbered heading.
  if ((text.match(/\s[(（]?\d{1,2}[)）.、]?\s*[\u3400-\u9fff]/g) ?? []).length >= 2) return false;
  // A line wholly in brackets is an aside ("（上接第一版）", "(continued from page 1)"), not a heading.
  if (/^[(（[【〔][^()（）[\]【】〔〕]*[)）\]】〕]$/.test(text.trim())) return false;
  if (/\s(and|or|of|the|to|in|for|with|a|an|by|as|at|on|from|that|is|are)$/i.test(text.trim())) return false;
  // A heading of two sizes ("ISAT Practice" over a smaller "Cumulative, Chapters 1-9") is as large as its
  // lines on average, though most of its characters are in the smaller size.
  const size = Math.max(dominantSize(lines), lines.reduce((sum, l) => sum + l.fontSize, 0) / lines.length);
  const body = ctx.bodyFontSize || size;
  const sentence = endsLikeSentence(text);
  // OCR line boxes vary in height by a fifth or so: a heading must stand out more there.
  const ratio = lines.some((l) => l.source === 'ocr') ? 1.35 : 1.18;
  // Length as set: a CJK character takes the room of two Latin letters.
  const setLength = [...text].reduce((n, c) => n + (isCjk(c) ? 2 : 1), 0);
  if (size >= body * ratio && !(sentence && setLength > 60) && !startsListItem(text)) return true;
  // A short line of Chinese characters a fifth larger than the page's Chinese running text ("第七单元测查卷").
  const han = opts.hanBody ?? 0;
  if (han > 0 && lines.length === 1 && lines[0]!.source === 'ocr' && isHanLine(lines[0]!) && lines[0]!.fontSize >= 1.2 * han && [...text].length <= 30 && !sentence && !startsListItem(text)) return true;
  const allBold = lines.every((l) => l.bold);
  if (allBold && !sentence && text.length <= 100 && !startsListItem(text)) return true;
  // A lone short line that is not a sentence, with a paragraph after it: a heading set in the body font
  // (OCR gives no weights, and many PDFs set headings only apart by space).
  const first = text.trim().replace(/^[“"'‘(（【《「『]+/, '')[0] ?? '';
  // "功用：古埃及法老胡夫的陵墓", "Tel: 555 0100": a label and its value make a line of text, not a heading.
  const labelled = /^[^:：]{1,12}[:：]\s*\S/.test(text.trim());
  // Lengths leave spaces out: OCR scatters spaces through small print ("C om binati ons").
  const inked = [...text.replace(/\s+/g, '')].length;
  if (opts.standalone && !labelled && lines.length === 1 && inked <= 40 && inked >= 2 && !sentence && !startsListItem(text) && /[\p{Lu}\p{Lo}\d]/u.test(first) && !/^[\d\s.,%()-]+$/.test(text) && (opts.centred || !/[,，、]/.test(text))) return true;
  // A heading that wraps: two lines, the second ending well short of the column, between a finished paragraph
  // and the text it heads; no sentence, no comma, no label ("Long-distance movements and comparison to Atlantic
  // / migration models").
  if (opts.wrappedHead && !labelled && lines.length === 2 && inked <= 90 && !sentence && !startsListItem(text) && /[\p{Lu}\p{Lo}\d]/u.test(first) && !/[,，、;；]/.test(text) && !/-$/.test(lines[0]!.text.trim())) return true;
  const depth = headingNumberDepth(text);
  if (depth > 0 && lines.length === 1 && inked <= 50 && !sentence && !/^\d+(\.\d+)*\.?\s*$/.test(text)) {
    // "3 Results" but not "3 apples were used": the words after the number start with a capital or a CJK character.
    const rest = text.replace(/^[^\p{L}]*(第[^章节篇部]+[章节篇部]|[一二三四五六七八九十]+[、.．]|[（(][一二三四五六七八九十]+[)）])?\s*/u, '');
    if (/^[\p{Lu}\p{Lo}]/u.test(rest) || /^[\u3400-\u9fff]/.test(text)) return true;
  }
  return false;
}

/**
 * The rules analyser: tables and figures first (from rules, aligned text and image regions), then the text
 * lines left are cut into columns and bands (XY-cut), bands into paragraphs, paragraphs typed as titles,
 * captions, notes or text. Regions come back in reading order.
 */
export class RulesLayout implements LayoutModel {
  readonly name = 'rules';

  analysePage(page: Page, ctx: LayoutContext): LayoutRegion[] {
    const lines = withInferredBold(splitOcrLinesAtGutters(joinVerticalText(dropDuplicateOcrLines(page.lines.filter((l) => l.text.trim() !== ''))), page.width));
    const { tables, graphics } = detectTables(page, lines);
    const inTable = new Set(tables.flatMap((t) => t.lines));
    // Stray pieces of cell text that a table's rows left out still lie inside its box: they belong to it.
    for (const t of tables) {
      for (const l of lines) {
        if (!inTable.has(l) && centerInside(l.bbox, t.grid.bbox, 2)) {
          inTable.add(l);
          t.lines.push(l);
        }
      }
    }
    const regions: LayoutRegion[] = [];
    for (const t of tables) {
      regions.push({ type: 'Table', bbox: t.grid.bbox, lines: t.lines, text: '', table: t.grid, fontSize: dominantSize(t.lines) });
    }
    const drawn = captionedGraphics(lines, page.rules, page.width, page.height, [...page.images.map((i) => i.bbox), ...graphics, ...regions.map((r) => r.bbox)]);
    // A scan has no image regions: its pictures show as blank bands between text.
    const blank = page.ocr && page.images.length === 0 ? blankBandFigures(lines.filter((l) => !inTable.has(l)), regions.map((r) => r.bbox), page.width, page.height) : [];
    const figures = [
      ...figureBoxes(page, [...graphics, ...drawn], lines.filter((l) => !inTable.has(l)))
        .filter((f) => !regions.some((r) => bboxIntersection(r.bbox, f) > 0.5 * bboxArea(f)))
        .map((f) => absorbLabels(f, lines.filter((l) => !inTable.has(l)))),
      // A blank band already holds its labels; growing it by short lines would eat narrow text columns.
      ...blank,
    ];
    const figLines = new Map<BBox, TextLine[]>(figures.map((f) => [f, []]));
    const flowLines: TextLine[] = [];
    for (const l of lines) {
      if (inTable.has(l)) continue;
      // A numbered heading is never a figure's label, even where a graphic's box reaches over it.
      const fig = isNumberedHeading(l.text) ? undefined : figures.find((f) => centerInside(l.bbox, f, 2));
      if (fig) figLines.get(fig)!.push(l);
      else flowLines.push(l);
    }
    for (const f of figures) {
      const ls = figLines.get(f)!;
      regions.push({ type: 'Figure', bbox: f, lines: ls, text: '', fontSize: dominantSize(ls) });
    }
    const pieces = joinHeadlineFragments(flowLines.flatMap((l) => splitLineIntoPieces(l).map((p) => p.line)));
    const items: FlowItem[] = [
      ...pieces.map((line): FlowItem => ({ kind: 'line', bbox: cutBox(line), line })),
      ...regions.map((region): FlowItem => ({ kind: 'region', bbox: region.bbox, region })),
    ];
    if (items.length === 0) return [];
    const em = median(pieces.map((l) => l.fontSize)) || ctx.bodyFontSize || 12;
    const lh = median(pieces.map((l) => l.bbox[3] - l.bbox[1])) || em;
    // OCR boxes are padded around the ink, so the gutter between two columns of a scan can be only a few pixels.
    const minColumnGap = page.ocr ? Math.max(0.35 * em, 4) : Math.max(0.8 * em, page.width * 0.01);
    const hanBody = page.ocr ? hanBodySize(pieces) : 0;
    const leaves = joinStackedLeaves(xyCut(items, { minColumnGap, minBandGap: Math.max(1.2 * lh, em) }), lh);
    const out: LayoutRegion[] = [];
    for (const leaf of leaves) {
      const leafLines: TextLine[] = [];
      const flush = (): void => {
        if (leafLines.length) out.push(...this.paragraphs(leafLines.splice(0), ctx, hanBody));
      };
      for (const item of [...leaf].sort((a, b) => a.bbox[1] - b.bbox[1])) {
        if (item.kind === 'region') {
          flush();
          out.push(item.region);
        } else leafLines.push(item.line);
      }
      flush();
    }
    return attachFragments(joinCapsHeadingBlocks(headLoneLines(out, ctx, lh), lh), lh);
  }

  private paragraphs(lines: TextLine[], ctx: LayoutContext, hanBody = 0): LayoutRegion[] {
    const paras = groupParagraphs(lines);
    const colLeft = Math.min(...lines.map((l) => l.bbox[0]));
    const colRight = Math.max(...lines.map((l) => l.bbox[2]));
    const colWidth = colRight - colLeft;
    const regions = paras.map((para, i) => {
      const next = paras[i + 1];
      const w = para[0]!.bbox[2] - para[0]!.bbox[0];
      // A heading stands between a finished paragraph (or nothing) and the text it heads.
      const prevText = i > 0 ? paragraphText(paras[i - 1]!).trim() : '';
      // A finished paragraph: it ends in a stop, or its last line ends well short of the column's right edge.
      const prevLast = i > 0 ? paras[i - 1]![paras[i - 1]!.length - 1]! : null;
      const afterBreak = i === 0 || /[.。!！?？:：;；]$/.test(prevText) || paras[i - 1]!.length === 1 || (prevLast !== null && colRight - prevLast.bbox[2] > 4 * prevLast.fontSize);
      const centred = para.length === 1 && paras.length > 1 && isCentred(para[0]!, colLeft, colRight, para[0]!.fontSize);
      // Chinese paragraphs open with an indent: an unindented single line right over one is a heading.
      const overIndent = next !== undefined && para.length === 1 && next[0]!.bbox[0] > para[0]!.bbox[0] + 0.5 * para[0]!.fontSize && cjkRatio(para[0]!.text) > 0.5;
      const standalone = next !== undefined && (w < 0.7 * colWidth || centred || overIndent) && afterBreak;
      // Two lines, the second ending short (less than 0.7 of the column), after a finished paragraph, over another.
      const lastW = para[para.length - 1]!.bbox[2] - para[para.length - 1]!.bbox[0];
      const wrappedHead = next !== undefined && para.length === 2 && lastW < 0.7 * colWidth && afterBreak && i > 0;
      const text = paragraphText(para);
      const bbox = bboxUnion(para.map((l) => l.bbox));
      const fontSize = dominantSize(para);
      const region: LayoutRegion = { type: 'Text', bbox, lines: para, text, fontSize };
      if (captionKind(text)) region.role = 'caption';
      else if (isNoteText(text)) region.role = 'note';
      else if (isTitleParagraph(para, text, ctx, { standalone, wrappedHead, centred, hanBody })) {
        region.type = 'Title';
        region.level = headingLevel(text, fontSize, ctx);
      }
      return region;
    });
    return groupListItems(regions);
  }
}

/**
 * A heading set apart by space above and below can fall into a band of its own (XY-cut cuts at the wider gaps),
 * where paragraph typing sees no text after it. A one-line Text region right over a paragraph of the same column
 * (within three line heights, same left edge, the line shorter than 0.7 of the paragraph's width), after a
 * finished paragraph or none, is typed as a standalone line.
 */
function headLoneLines(regions: LayoutRegion[], ctx: LayoutContext, lh: number): LayoutRegion[] {
  for (let i = 0; i < regions.length; i++) {
    const r = regions[i]!;
    const next = regions[i + 1];
    if (r.type !== 'Text' || r.role || r.lines.length !== 1 || !next || next.type !== 'Text' || next.role) continue;
    const gap = next.bbox[1] - r.bbox[3];
    if (gap < 0 || gap > 3 * lh || Math.abs(next.bbox[0] - r.bbox[0]) > lh || r.bbox[2] - r.bbox[0] >= 0.7 * (next.bbox[2] - next.bbox[0])) continue;
    const prev = regions[i - 1];
    const above = prev !== undefined && prev.bbox[3] <= r.bbox[1] && Math.abs(prev.bbox[0] - r.bbox[0]) <= lh;
    const prevLast = prev?.lines[prev.lines.length - 1];
    const finished = !above || prev!.type !== 'Text' || /[.。!！?？:：;；]$/.test(prev!.text.trim()) || (prevLast !== undefined && prev!.bbox[2] - prevLast.bbox[2] > 4 * prevLast.fontSize);
    if (finished && isTitleParagraph(r.lines, r.text, ctx, { standalone: true })) {
      r.type = 'Title';
      r.level = headingLevel(r.text, r.fontSize, ctx);
    }
  }
  return regions;
}

/** A line in Latin capitals: two words or more, eight letters or more (seven in ten of its characters), nine in ten of them capitals ("DEPARTMENT OF THE INTERIOR"). */
function isCapsLine(text: string): boolean {
  const letters = text.replace(/[^A-Za-z]/g, '');
  const inked = text.replace(/\s+/g, '').length;
  return /\S\s+\S/.test(text.trim()) && letters.length >= 8 && letters.length >= 0.7 * inked && letters.replace(/[^A-Z]/g, '').length >= 0.9 * letters.length;
}

/**
 * A notice's heading block: a paragraph opening with a line in capitals (the agency), then short paragraphs that
 * finish no sentence (sub-agency, docket number, the notice's title), ended by a run-in label ("AGENCY:",
 * "SUMMARY:"). The block is one Title. Without the run-in label after it nothing is joined.
 */
function joinCapsHeadingBlocks(regions: LayoutRegion[], lh: number): LayoutRegion[] {
  const out: LayoutRegion[] = [];
  for (let i = 0; i < regions.length; i++) {
    const head = regions[i]!;
    const plain = (r: LayoutRegion): boolean => r.type !== 'Table' && r.type !== 'Figure' && !r.role;
    if (!plain(head) || !isCapsLine(head.lines[0]?.text ?? '') || isRunInLabel(head.text) || head.lines.length > 4) {
      out.push(head);
      continue;
    }
    let j = i;
    let lines = head.lines.length;
    while (j + 1 < regions.length) {
      const r = regions[j + 1]!;
      const prev = regions[j]!;
      // The same column, right under the part before.
      const under = r.bbox[1] >= prev.bbox[3] - 0.5 * lh && r.bbox[1] - prev.bbox[3] < 3 * lh && Math.abs(r.bbox[0] - head.bbox[0]) < 2 * lh;
      if (!under || !plain(r) || isRunInLabel(r.text) || r.lines.length > 8 || /[.!?。！？]$/.test(r.text.trim())) break;
      lines += r.lines.length;
      j++;
    }
    const end = regions[j + 1];
    if (j === i || !end || !plain(end) || !isRunInLabel(end.text) || end.bbox[1] < regions[j]!.bbox[3] - 0.5 * lh || lines > 14 || /[.!?。！？]$/.test(regions[j]!.text.trim())) {
      out.push(head);
      continue;
    }
    const parts = regions.slice(i, j + 1);
    out.push({ type: 'Title', bbox: bboxUnion(parts.map((r) => r.bbox)), lines: parts.flatMap((r) => r.lines), text: parts.map((r) => r.text).join(' '), fontSize: head.fontSize, level: head.level ?? 1 });
    i = j;
  }
  return out;
}

/**
 * XY-cut cuts a column at every wider gap. Consecutive leaves of text lines only, one right under the other
 * with the same left and right edges, are one stretch of a column again: paragraph grouping, which sees
 * indents, line ends and sentence stops, decides whether the gap is a paragraph break or a line OCR missed.
 */
function joinStackedLeaves(leaves: FlowItem[][], lh: number): FlowItem[][] {
  const out: FlowItem[][] = [];
  const extent = (leaf: FlowItem[]): BBox => bboxUnion(leaf.map((i) => i.bbox));
  for (const leaf of leaves) {
    const prev = out[out.length - 1];
    if (prev && [...prev, ...leaf].every((i) => i.kind === 'line')) {
      const a = extent(prev);
      const b = extent(leaf);
      const gap = b[1] - a[3];
      if (gap >= 0 && gap < 2.5 * lh && Math.abs(a[0] - b[0]) < lh && Math.abs(a[2] - b[2]) < lh) {
        prev.push(...leaf);
        continue;
      }
    }
    out.push([...leaf]);
  }
  return out;
}

/** A scrap of text too small to stand as a paragraph: a choice letter, a number, a fraction, one or two characters. */
function isFragment(r: LayoutRegion): boolean {
  if (r.type !== 'Text' || r.role || r.text.length > 24) return false;
  const t = r.text.replace(/\s+/g, '');
  // Formulas and equation numbers are elements of their own.
  if (/[=<>≤≥]/.test(t) || /^\(\d{1,3}[a-z]?\)$/.test(t)) return false;
  const weight = [...t].reduce((n, c) => n + (isCjk(c) ? 2 : 1), 0);
  return weight <= 4 || (weight <= 12 && !/\p{L}{3,}/u.test(r.text) && !/[\u3400-\u9fff]{2,}/.test(r.text));
}

/**
 * Scraps under a paragraph (the answer choices of a question, the terms of a fraction) belong to the nearest
 * paragraph above them: within its width and a few lines below its last line. Taken top to bottom, so that a
 * paragraph grown by one scrap reaches the next.
 */
function attachFragments(regions: LayoutRegion[], lh: number): LayoutRegion[] {
  const hosts = regions.filter((r) => r.type === 'Text' && !r.role && !isFragment(r));
  const gone = new Set<LayoutRegion>();
  const scraps = regions.filter(isFragment).sort((a, b) => a.bbox[1] - b.bbox[1]);
  for (const f of scraps) {
    let best: LayoutRegion | null = null;
    let bestGap = Infinity;
    for (const h of hosts) {
      const gap = f.bbox[1] - h.bbox[3];
      const within = f.bbox[0] >= h.bbox[0] - lh && f.bbox[2] <= h.bbox[2] + lh && f.bbox[1] >= h.bbox[1] && gap <= 3 * lh;
      if (within && gap < bestGap) [best, bestGap] = [h, gap];
    }
    if (!best) continue;
    best.bbox = bboxUnion([best.bbox, f.bbox]);
    best.lines = [...best.lines, ...f.lines];
    best.text = `${best.text} ${f.text}`;
    gone.add(f);
  }
  return regions.filter((r) => !gone.has(r));
}

const BULLET = /^[•●○◦▪■□◆◇➢➤►✓✔\-–—*·]/;

/**
 * Consecutive list items of one column form one Text region (a list), one item per line of its text. A numbered
 * item that runs over several lines ("(2) A right-of-way is reserved for ditches...", "3. 答案示例：...") is a
 * numbered paragraph: it stands as a paragraph of its own, as do the numbered ones around it. Bulleted items
 * and one-line numbered items make a list.
 */
function groupListItems(regions: LayoutRegion[]): LayoutRegion[] {
  const out: LayoutRegion[] = [];
  let list: LayoutRegion | null = null;
  for (const r of regions) {
    const numberedParagraph = r.lines.length > 1 && !BULLET.test(r.text.trim());
    const item = r.type === 'Text' && !r.role && startsListItem(r.text) && !numberedParagraph;
    if (item && list && Math.abs(r.bbox[0] - list.bbox[0]) < 2 * r.fontSize && r.bbox[1] - list.bbox[3] < 2 * r.fontSize) {
      list.text += `\n${r.text}`;
      list.lines.push(...r.lines);
      list.bbox = bboxUnion([list.bbox, r.bbox]);
      continue;
    }
    list = item ? { ...r, lines: [...r.lines] } : null;
    out.push(list ?? r);
  }
  return out;
}

/** Body font size and heading sizes of a document, from all its lines (by characters set in each size). */
export function layoutContext(lines: readonly TextLine[]): LayoutContext {
  const chars = new Map<number, number>();
  for (const l of lines) {
    const k = Math.round(l.fontSize);
    chars.set(k, (chars.get(k) ?? 0) + l.text.length);
  }
  let body = 0;
  let most = -1;
  for (const [k, n] of chars) if (n > most) [body, most] = [k, n];
  const headingSizes = [...chars.keys()].filter((k) => k >= body * 1.18).sort((a, b) => b - a);
  // Sizes within 8% of each other are one heading level.
  const levels: number[] = [];
  for (const s of headingSizes) if (!levels.length || s < levels[levels.length - 1]! * 0.92) levels.push(s);
  return { bodyFontSize: body, headingSizes: levels.slice(0, 5) };
}
