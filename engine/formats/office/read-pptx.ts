import type { BBox } from '../../core/geometry.js';
import type { Page, SourceBlock, TableCell, TextLine } from '../../core/page.js';
import { DocError } from '../../core/errors.js';
import { normalizeText } from '../../core/text.js';
import type { SafeZip } from './safe-zip.js';
import { textWidth, wrapText } from './flow-layout.js';
import { attr, child, children, childrenNamed, localName, parseRels, parseXml, relId, path, root, textNode, type XNode } from './ooxml-xml.js';

/** EMU per page pixel at 144 dpi (914400 EMU per inch). */
const EMU_PER_PX = 914400 / 144;
const MAX_SLIDES = 2000;

interface Frame {
  x: number;
  y: number;
  w: number;
  h: number;
}

function frameOf(xfrm: XNode | undefined): Frame | null {
  const off = xfrm ? child(xfrm, 'off') : undefined;
  const ext = xfrm ? child(xfrm, 'ext') : undefined;
  if (!off || !ext) return null;
  return {
    x: Number(attr(off, 'x') ?? 0) / EMU_PER_PX,
    y: Number(attr(off, 'y') ?? 0) / EMU_PER_PX,
    w: Number(attr(ext, 'cx') ?? 0) / EMU_PER_PX,
    h: Number(attr(ext, 'cy') ?? 0) / EMU_PER_PX,
  };
}

interface Placeholder {
  type: string;
  idx: string;
}

function placeholderOf(sp: XNode): Placeholder | null {
  const nv = child(sp, 'nvSpPr') ?? child(sp, 'nvGraphicFramePr') ?? child(sp, 'nvPicPr');
  const ph = nv ? path(nv, 'nvPr', 'ph') : undefined;
  if (!ph) return null;
  return { type: attr(ph, 'type') ?? 'body', idx: attr(ph, 'idx') ?? '' };
}

/** Placeholder frames of a layout or master, by type and by idx, for shapes that inherit their position. */
function placeholderFrames(zip: SafeZip, part: string | undefined): { byType: Map<string, Frame>; byIdx: Map<string, Frame> } {
  const byType = new Map<string, Frame>();
  const byIdx = new Map<string, Frame>();
  const xml = part ? zip.readText(part) : null;
  if (!xml) return { byType, byIdx };
  const top = parseXml(xml, part!).find((n) => localName(n) === 'sldLayout' || localName(n) === 'sldMaster');
  const tree = top ? path(top, 'cSld', 'spTree') : undefined;
  if (!tree) return { byType, byIdx };
  for (const sp of childrenNamed(tree, 'sp')) {
    const ph = placeholderOf(sp);
    const f = frameOf(path(sp, 'spPr', 'xfrm'));
    if (!ph || !f) continue;
    if (!byType.has(ph.type)) byType.set(ph.type, f);
    if (ph.idx) byIdx.set(ph.idx, f);
  }
  return { byType, byIdx };
}

function paragraphsOf(txBody: XNode | undefined): { text: string; size: number | null; bold: boolean }[] {
  if (!txBody) return [];
  const out: { text: string; size: number | null; bold: boolean }[] = [];
  for (const p of childrenNamed(txBody, 'p')) {
    let text = '';
    let size: number | null = null;
    let boldChars = 0;
    let chars = 0;
    for (const c of children(p)) {
      const name = localName(c);
      if (name === 'r' || name === 'fld') {
        const rPr = child(c, 'rPr');
        const sz = rPr ? Number(attr(rPr, 'sz')) : NaN;
        if (Number.isFinite(sz) && sz > 0 && size === null) size = (sz / 100) * 2;
        const t = childrenNamed(c, 't').map((tn) => children(tn).map((x) => textNode(x) ?? '').join('')).join('');
        text += t;
        chars += t.length;
        if (rPr && /^(1|true)$/i.test(attr(rPr, 'b') ?? '')) boldChars += t.length;
      } else if (name === 'br') {
        text += '\n';
      }
    }
    const bullet = path(p, 'pPr', 'buChar') ? '• ' : path(p, 'pPr', 'buAutoNum') ? '• ' : '';
    if (text.trim()) out.push({ text: bullet + text, size, bold: chars > 0 && boldChars === chars });
  }
  return out;
}

function line(text: string, x: number, y: number, size: number, bold: boolean, maxX: number): TextLine {
  const w = Math.min(textWidth(text, size), Math.max(size, maxX - x));
  const bbox: BBox = [r1(x), r1(y), r1(x + w), r1(y + size * 1.2)];
  return { text, bbox, runs: [{ text, bbox, fontSize: r1(size), bold: bold || undefined }], fontSize: r1(size), bold, source: 'text', confidence: 1 };
}

/**
 * Presentations (PPTX, POTM): one page per slide at its real size (144 dpi). Shapes keep their own
 * frames (or the frames their layout placeholders give them); titles become Title blocks, text
 * frames Text blocks, tables TableGrids with real cell boxes, pictures Figure regions.
 */
export function readPptx(zip: SafeZip): Page[] {
  const presXml = zip.readText('ppt/presentation.xml');
  if (!presXml) throw new DocError('INVALID_DOCUMENT', 'the presentation has no ppt/presentation.xml part');
  const pres = root(parseXml(presXml, 'ppt/presentation.xml'), 'presentation');
  const rels = parseRels(zip.readText('ppt/_rels/presentation.xml.rels'), 'ppt', 'presentation rels');
  const sz = pres ? child(pres, 'sldSz') : undefined;
  const width = Math.round(Number(attr(sz ?? {}, 'cx') ?? 9144000) / EMU_PER_PX);
  const height = Math.round(Number(attr(sz ?? {}, 'cy') ?? 6858000) / EMU_PER_PX);
  const ids = pres ? childrenNamed(child(pres, 'sldIdLst') ?? {}, 'sldId') : [];
  if (ids.length > MAX_SLIDES) throw new DocError('INVALID_DOCUMENT', `the presentation has ${ids.length} slides; at most ${MAX_SLIDES} are accepted`);
  const pages: Page[] = [];
  for (const id of ids) {
    const part = rels.get(relId(id) ?? '');
    const xml = part ? zip.readText(part) : null;
    if (!part || !xml) continue;
    if (attr(id, 'show') === '0') continue;
    pages.push(readSlide(zip, part, xml, pages.length + 1, width, height));
  }
  if (pages.length === 0) throw new DocError('INVALID_DOCUMENT', 'the presentation has no slides');
  return pages;
}

function readSlide(zip: SafeZip, part: string, xml: string, pageNumber: number, width: number, height: number): Page {
  const dir = part.slice(0, part.lastIndexOf('/'));
  const relsPart = `${dir}/_rels/${part.slice(part.lastIndexOf('/') + 1)}.rels`;
  const slideRels = parseRels(zip.readText(relsPart), dir, relsPart);
  const layoutPart = [...slideRels.values()].find((t) => /slideLayouts\//.test(t));
  const layout = placeholderFrames(zip, layoutPart);
  let master = { byType: new Map<string, Frame>(), byIdx: new Map<string, Frame>() };
  if (layoutPart) {
    const ldir = layoutPart.slice(0, layoutPart.lastIndexOf('/'));
    const lrelsPart = `${ldir}/_rels/${layoutPart.slice(layoutPart.lastIndexOf('/') + 1)}.rels`;
    const lrels = parseRels(zip.readText(lrelsPart), ldir, lrelsPart);
    master = placeholderFrames(zip, [...lrels.values()].find((t) => /slideMasters\//.test(t)));
  }
  const page: Page = { pageNumber, width, height, lines: [], rules: [], images: [], sourceBlocks: [], ocr: false, rotation: 0 };
  const top = parseXml(xml, part).find((n) => localName(n) === 'sld');
  const tree = top ? path(top, 'cSld', 'spTree') : undefined;
  const blocks: SourceBlock[] = [];
  const textSizes = new Map<SourceBlock, { size: number; lines: number }>();
  let fallbackY = height * 0.25;

  const resolveFrame = (n: XNode, own: Frame | null): Frame => {
    if (own && own.w > 0 && own.h > 0) return own;
    const ph = placeholderOf(n);
    const t = ph?.type === 'ctrTitle' ? 'title' : ph?.type;
    const inherited = ph
      ? (ph.idx && (layout.byIdx.get(ph.idx) ?? master.byIdx.get(ph.idx))) || layout.byType.get(ph.type) || layout.byType.get(t ?? '') || master.byType.get(t ?? '') || master.byType.get(ph.type)
      : undefined;
    if (inherited) return inherited;
    if (t === 'title') return { x: width * 0.08, y: height * 0.05, w: width * 0.84, h: height * 0.15 };
    const f = { x: width * 0.08, y: fallbackY, w: width * 0.84, h: height * 0.2 };
    fallbackY = Math.min(height * 0.9, fallbackY + height * 0.2);
    return f;
  };

  const walk = (n: XNode) => {
    for (const c of children(n)) {
      const name = localName(c);
      if (name === 'sp') shape(c);
      else if (name === 'grpSp') walk(c);
      else if (name === 'graphicFrame') graphicFrame(c);
      else if (name === 'pic') {
        const f = frameOf(path(c, 'spPr', 'xfrm'));
        if (f && f.w > 8 && f.h > 8) {
          const bbox: BBox = [r1(f.x), r1(f.y), r1(f.x + f.w), r1(f.y + f.h)];
          page.images.push({ bbox });
          blocks.push({ type: 'Figure', text: '', bbox });
        }
      }
    }
  };

  const shape = (sp: XNode) => {
    const paras = paragraphsOf(child(sp, 'txBody'));
    if (paras.length === 0) return;
    const ph = placeholderOf(sp);
    const isTitle = ph?.type === 'title' || ph?.type === 'ctrTitle';
    const f = resolveFrame(sp, frameOf(path(sp, 'spPr', 'xfrm')));
    const inset = 14;
    let y = f.y + inset;
    const shapeLines: TextLine[] = [];
    for (const p of paras) {
      const size = p.size ?? (isTitle ? 88 : 36);
      for (const t of wrapText(normalizeText(p.text), size, Math.max(size, f.w - 2 * inset))) {
        const l = line(t, f.x + inset, y, size, p.bold || isTitle, f.x + f.w);
        shapeLines.push(l);
        y += size * 1.2;
      }
    }
    if (!shapeLines.length) return;
    page.lines.push(...shapeLines);
    const bbox = unionOf(shapeLines.map((l) => l.bbox));
    const text = shapeLines.map((l) => l.text).join('\n');
    if (isTitle) blocks.push({ type: 'Title', text: text.replace(/\n/g, ' '), bbox, level: 1 });
    else {
      const block: SourceBlock = { type: 'Text', text, bbox };
      blocks.push(block);
      textSizes.set(block, { size: Math.max(...shapeLines.map((l) => l.fontSize)), lines: shapeLines.length });
    }
  };

  const graphicFrame = (gf: XNode) => {
    const tbl = path(gf, 'graphic', 'graphicData', 'tbl');
    const f = resolveFrame(gf, frameOf(child(gf, 'xfrm')));
    if (!tbl) return;
    const colW = childrenNamed(child(tbl, 'tblGrid') ?? {}, 'gridCol').map((g) => Number(attr(g, 'w') ?? 0) / EMU_PER_PX);
    const trs = childrenNamed(tbl, 'tr');
    const rowH = trs.map((tr) => Number(attr(tr, 'h') ?? 0) / EMU_PER_PX);
    const xs = [f.x];
    for (const w of colW) xs.push(xs[xs.length - 1]! + w);
    const size = 28;
    const ys = [f.y];
    // Row heights grow with their wrapped text when the file's heights are too small.
    trs.forEach((tr, r) => {
      let need = rowH[r]! || size * 1.6;
      childrenNamed(tr, 'tc').forEach((tc, c) => {
        const w = (colW[c] ?? 100) - 16;
        const n = paragraphsOf(child(tc, 'txBody')).reduce((s, p) => s + wrapText(normalizeText(p.text), size, Math.max(w, size)).length, 0);
        need = Math.max(need, n * size * 1.2 + 16);
      });
      ys.push(ys[r]! + need);
    });
    const cells: TableCell[] = [];
    trs.forEach((tr, r) => {
      childrenNamed(tr, 'tc').forEach((tc, c) => {
        if (/^(1|true)$/i.test(attr(tc, 'hMerge') ?? '') || /^(1|true)$/i.test(attr(tc, 'vMerge') ?? '')) return;
        const colSpan = Math.max(1, Number(attr(tc, 'gridSpan') ?? 1) || 1);
        const rowSpan = Math.max(1, Number(attr(tc, 'rowSpan') ?? 1) || 1);
        const c2 = Math.min(xs.length - 1, c + colSpan);
        const rEnd = Math.min(ys.length - 1, r + rowSpan);
        const bbox: BBox = [r1(xs[c] ?? f.x), r1(ys[r]!), r1(xs[c2] ?? f.x + f.w), r1(ys[rEnd]!)];
        const paras = paragraphsOf(child(tc, 'txBody'));
        const text = paras.map((p) => normalizeText(p.text).trim()).join('\n');
        cells.push({ row: r, col: c, rowSpan, colSpan, text, bbox });
        let y = bbox[1] + 8;
        for (const p of paras) {
          for (const t of wrapText(normalizeText(p.text), size, Math.max(size, bbox[2] - bbox[0] - 16))) {
            page.lines.push(line(t, bbox[0] + 8, y, size, p.bold, bbox[2]));
            y += size * 1.2;
          }
        }
      });
    });
    const bbox: BBox = [r1(xs[0]!), r1(ys[0]!), r1(xs[xs.length - 1]!), r1(ys[ys.length - 1]!)];
    for (const y of ys) page.rules.push({ x1: bbox[0], y1: r1(y), x2: bbox[2], y2: r1(y), width: 1 });
    for (const x of xs) page.rules.push({ x1: r1(x), y1: bbox[1], x2: r1(x), y2: bbox[3], width: 1 });
    const grid: string[][] = trs.map(() => new Array<string>(colW.length).fill(''));
    for (const cell of cells) if (grid[cell.row]) grid[cell.row]![cell.col] = cell.text.replace(/\n/g, ' ');
    blocks.push({ type: 'Table', text: grid.map((r) => r.join(' | ')).join('\n'), bbox, table: { bbox, rows: trs.length, cols: colW.length, cells } });
  };

  if (tree) walk(tree);
  promoteTitle(blocks, textSizes, height);
  // Reading order: titles first, then top to bottom, left to right.
  blocks.sort((a, b) => Number(b.type === 'Title') - Number(a.type === 'Title') || a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  page.sourceBlocks = blocks;
  page.lines.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]);
  return page;
}

/**
 * Slides whose title is a plain text box (no title placeholder; common after conversions from .ppt):
 * the short text in the top third set larger than any other text on the slide is its title.
 */
function promoteTitle(blocks: SourceBlock[], sizes: Map<SourceBlock, { size: number; lines: number }>, height: number): void {
  if (blocks.some((b) => b.type === 'Title')) return;
  let best: SourceBlock | null = null;
  let bestSize = 0;
  let otherMax = 0;
  for (const [b, s] of sizes) {
    if (b.bbox[1] < height / 3 && s.lines <= 2 && s.size > bestSize) {
      if (best) otherMax = Math.max(otherMax, bestSize);
      best = b;
      bestSize = s.size;
    } else otherMax = Math.max(otherMax, s.size);
  }
  if (best && bestSize > otherMax * 1.15) {
    best.type = 'Title';
    best.level = 1;
    best.text = best.text.replace(/\n/g, ' ');
  }
}

function unionOf(boxes: BBox[]): BBox {
  return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
}

function r1(n: number): number {
  return Math.round(n * 10) / 10;
}
