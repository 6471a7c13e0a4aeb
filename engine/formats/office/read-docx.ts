import type { Page } from '../../core/page.js';
import { DocError } from '../../core/errors.js';
import type { SafeZip } from './safe-zip.js';
import { A4_HEIGHT, A4_WIDTH, layoutFlow, type FlowBlock, type FlowTable, type PageGeometry } from './flow-layout.js';
import { attr, child, children, childrenNamed, localName, parseXml, path, root, textNode, type XNode } from './ooxml-xml.js';

interface StyleInfo {
  name: string;
  basedOn?: string;
  outlineLevel?: number;
  bold?: boolean;
  /** Run size the style sets, in half-points (= page pixels at 144 dpi). */
  size?: number;
}

/** The style's own run size or the nearest one it is based on. */
function styleSize(styles: Map<string, StyleInfo>, id: string | undefined, depth = 0): number | undefined {
  if (!id || depth > 10) return undefined;
  const s = styles.get(id);
  if (!s) return undefined;
  return s.size ?? styleSize(styles, s.basedOn, depth + 1);
}

/** A w:sz value in half-points; 1 pt = 2 px at 144 dpi, so half-points are page pixels. */
function halfPoints(n: XNode | undefined): number | undefined {
  if (!n) return undefined;
  const v = Number(attr(n, 'val'));
  return Number.isFinite(v) && v >= 2 && v <= 3276 ? v : undefined;
}

/** Twentieths of a point (twips) to page pixels at 144 dpi. */
const twips = (v: string | undefined): number => Number(v) / 10;

/** Page size and margins of a w:sectPr, or undefined when it states none. Landscape sizes are stated as such. */
function sectionGeometry(sectPr: XNode | undefined): PageGeometry | undefined {
  const size = sectPr ? child(sectPr, 'pgSz') : undefined;
  if (!sectPr || !size) return undefined;
  const width = twips(attr(size, 'w'));
  const height = twips(attr(size, 'h'));
  if (!Number.isFinite(width) || !Number.isFinite(height)) return undefined;
  // Word states A4 as 11906 x 16838 twips; our A4 is 1190 x 1684 px (either orientation).
  const near = (a: number, b: number) => Math.abs(a - b) < 2;
  const w = near(width, A4_WIDTH) ? A4_WIDTH : near(width, A4_HEIGHT) ? A4_HEIGHT : Math.round(width);
  const h = near(height, A4_HEIGHT) ? A4_HEIGHT : near(height, A4_WIDTH) ? A4_WIDTH : Math.round(height);
  const mar = child(sectPr, 'pgMar');
  const margin = (name: string) => {
    const v = mar ? Math.abs(twips(attr(mar, name))) : NaN;
    return Number.isFinite(v) ? Math.round(v) : 144;
  };
  return { width: w, height: h, margins: { top: margin('top'), right: margin('right'), bottom: margin('bottom'), left: margin('left') } };
}

/** The document default run size (w:docDefaults) and the default paragraph style's size. */
function defaultSize(zip: SafeZip, styles: Map<string, StyleInfo>): number | undefined {
  const xml = zip.readText('word/styles.xml');
  if (!xml) return undefined;
  const top = root(parseXml(xml, 'word/styles.xml'), 'styles');
  if (!top) return undefined;
  for (const s of childrenNamed(top, 'style')) {
    if (attr(s, 'type') === 'paragraph' && /^(1|true)$/i.test(attr(s, 'default') ?? '')) {
      const own = styleSize(styles, attr(s, 'styleId'));
      if (own) return own;
    }
  }
  return halfPoints(path(top, 'docDefaults', 'rPrDefault', 'rPr', 'sz'));
}

/** Heading level a paragraph style implies: "heading N", "Title", or an outline level. */
function styleLevel(styles: Map<string, StyleInfo>, id: string | undefined, depth = 0): number | null {
  if (!id || depth > 10) return null;
  const s = styles.get(id);
  if (!s) return null;
  const m = /^heading\s*(\d)$/i.exec(s.name) ?? /^标题\s*(\d)$/.exec(s.name);
  if (m) return Math.min(6, Number(m[1]));
  if (/^title$/i.test(s.name) || s.name === '标题') return 1;
  if (s.outlineLevel !== undefined && s.outlineLevel < 9) return Math.min(6, s.outlineLevel + 1);
  return styleLevel(styles, s.basedOn, depth + 1);
}

function readStyles(zip: SafeZip): Map<string, StyleInfo> {
  const map = new Map<string, StyleInfo>();
  const xml = zip.readText('word/styles.xml');
  if (!xml) return map;
  const top = root(parseXml(xml, 'word/styles.xml'), 'styles');
  if (!top) return map;
  for (const s of childrenNamed(top, 'style')) {
    const id = attr(s, 'styleId');
    if (!id) continue;
    const name = attr(child(s, 'name') ?? {}, 'val') ?? id;
    const info: StyleInfo = { name };
    const basedOn = child(s, 'basedOn');
    if (basedOn) info.basedOn = attr(basedOn, 'val');
    const ol = path(s, 'pPr', 'outlineLvl');
    if (ol) info.outlineLevel = Number(attr(ol, 'val'));
    const b = path(s, 'rPr', 'b');
    if (b) info.bold = !/^(0|false)$/i.test(attr(b, 'val') ?? '');
    const sz = halfPoints(path(s, 'rPr', 'sz'));
    if (sz) info.size = sz;
    map.set(id, info);
  }
  return map;
}

interface Numbering {
  /** numId -> ilvl -> numFmt */
  formats: Map<string, Map<number, string>>;
}

function readNumbering(zip: SafeZip): Numbering {
  const formats = new Map<string, Map<number, string>>();
  const xml = zip.readText('word/numbering.xml');
  if (!xml) return { formats };
  const top = root(parseXml(xml, 'word/numbering.xml'), 'numbering');
  if (!top) return { formats };
  const abstract = new Map<string, Map<number, string>>();
  for (const a of childrenNamed(top, 'abstractNum')) {
    const levels = new Map<number, string>();
    for (const l of childrenNamed(a, 'lvl')) levels.set(Number(attr(l, 'ilvl') ?? 0), attr(child(l, 'numFmt') ?? {}, 'val') ?? 'bullet');
    abstract.set(attr(a, 'abstractNumId') ?? '', levels);
  }
  for (const n of childrenNamed(top, 'num')) {
    const a = attr(child(n, 'abstractNumId') ?? {}, 'val') ?? '';
    formats.set(attr(n, 'numId') ?? '', abstract.get(a) ?? new Map());
  }
  return { formats };
}

/** Elements whose text is not the document's reading (deleted text, field codes, properties, drawings). */
const SKIP = new Set(['pPr', 'rPr', 'del', 'delText', 'instrText', 'drawing', 'pict', 'AlternateContent', 'object', 'footnoteReference', 'endnoteReference', 'commentReference']);

interface ParagraphRead {
  text: string;
  boldChars: number;
  chars: number;
  pageBreak: boolean;
  /** Characters per explicit run size (w:rPr/w:sz); runs without one are not counted. */
  sizedChars: Map<number, number>;
}

/** The run size most of the paragraph's characters carry, when most of them carry one. */
function dominantSize(read: ParagraphRead): number | undefined {
  let best: number | undefined;
  let bestChars = 0;
  for (const [size, n] of read.sizedChars) if (n > bestChars) [best, bestChars] = [size, n];
  return bestChars * 2 > read.chars ? best : undefined;
}

function readParagraphText(p: XNode): ParagraphRead {
  const out: ParagraphRead = { text: '', boldChars: 0, chars: 0, pageBreak: false, sizedChars: new Map() };
  const walk = (n: XNode, bold: boolean, size?: number) => {
    for (const c of children(n)) {
      const name = localName(c);
      if (!name || SKIP.has(name)) continue;
      if (name === 'r') {
        const b = path(c, 'rPr', 'b');
        const runBold = b ? !/^(0|false)$/i.test(attr(b, 'val') ?? '') : bold;
        walk(c, runBold, halfPoints(path(c, 'rPr', 'sz')) ?? size);
      } else if (name === 't') {
        const t = children(c).map((x) => textNode(x) ?? '').join('');
        out.text += t;
        out.chars += t.length;
        if (bold) out.boldChars += t.length;
        if (size) out.sizedChars.set(size, (out.sizedChars.get(size) ?? 0) + t.length);
      } else if (name === 'tab') {
        out.text += '\t';
      } else if (name === 'br' || name === 'cr') {
        if (attr(c, 'type') === 'page') out.pageBreak = true;
        else out.text += '\n';
      } else if (name === 'noBreakHyphen') {
        out.text += '-';
      } else {
        walk(c, bold, size);
      }
    }
  };
  walk(p, false);
  return out;
}

/**
 * Word processing documents (DOCX, DOCM, DOTX, DOTM): paragraphs with heading levels from styles,
 * lists, tables with merged cells, explicit page breaks; laid out on pages of each section's own size and
 * margins (w:sectPr; A4 when the file states none), with the file's run sizes.
 */
export function readDocx(zip: SafeZip): Page[] {
  const xml = zip.readText('word/document.xml');
  if (!xml) throw new DocError('INVALID_DOCUMENT', 'the Word file has no word/document.xml part');
  const body = path(root(parseXml(xml, 'word/document.xml'), 'document'), 'body');
  if (!body) throw new DocError('INVALID_DOCUMENT', 'the Word document has no body');
  const styles = readStyles(zip);
  const numbering = readNumbering(zip);
  const counters = new Map<string, number>();
  const blocks: FlowBlock[] = [];
  // A section's geometry is stated where it ends (in its last paragraph, or at the end of the body), so the
  // blocks read since the previous section end get it put in front of them.
  let sectionStart = 0;
  let sections = 0;
  const endSection = (sectPr: XNode | undefined) => {
    const geometry = sectionGeometry(sectPr);
    if (geometry) {
      const type = attr(child(sectPr!, 'type') ?? {}, 'val') ?? 'nextPage';
      blocks.splice(sectionStart, 0, { kind: 'geometry', geometry, newPage: sections > 0 && type !== 'continuous' });
    }
    sections++;
    sectionStart = blocks.length;
  };

  const paragraph = (p: XNode) => {
    const pPr = child(p, 'pPr');
    if (pPr && child(pPr, 'pageBreakBefore')) blocks.push({ kind: 'pageBreak' });
    const read = readParagraphText(p);
    const text = read.text.replace(/\t/g, ' ');
    const styleId = pPr ? attr(child(pPr, 'pStyle') ?? {}, 'val') : undefined;
    const ownOutline = pPr ? child(pPr, 'outlineLvl') : undefined;
    let level = styleLevel(styles, styleId);
    if (ownOutline) {
      const v = Number(attr(ownOutline, 'val'));
      if (v < 9) level = Math.min(6, v + 1);
    }
    if (text.trim()) {
      const numPr = pPr ? child(pPr, 'numPr') : undefined;
      const fontSize = dominantSize(read) ?? styleSize(styles, styleId);
      if (level) {
        blocks.push({ kind: 'heading', text, level, ...(fontSize ? { fontSize } : {}) });
      } else if (numPr) {
        const numId = attr(child(numPr, 'numId') ?? {}, 'val') ?? '';
        const ilvl = Number(attr(child(numPr, 'ilvl') ?? {}, 'val') ?? 0);
        const fmt = numbering.formats.get(numId)?.get(ilvl) ?? 'bullet';
        let prefix = '• ';
        if (fmt !== 'bullet' && fmt !== 'none') {
          const key = `${numId}:${ilvl}`;
          const n = (counters.get(key) ?? 0) + 1;
          counters.set(key, n);
          prefix = `${n}. `;
        }
        blocks.push({ kind: 'paragraph', text: prefix + text, list: true, ...(fontSize ? { fontSize } : {}) });
      } else {
        const styleBold = styleId ? styles.get(styleId)?.bold === true : false;
        blocks.push({ kind: 'paragraph', text, bold: styleBold || (read.chars > 0 && read.boldChars === read.chars), ...(fontSize ? { fontSize } : {}) });
      }
    }
    if (read.pageBreak) blocks.push({ kind: 'pageBreak' });
    const sectPr = pPr ? child(pPr, 'sectPr') : undefined;
    if (sectPr) endSection(sectPr);
  };

  const walkBody = (n: XNode) => {
    for (const c of children(n)) {
      const name = localName(c);
      if (name === 'p') paragraph(c);
      else if (name === 'tbl') blocks.push({ kind: 'table', table: readTable(c) });
      else if (name === 'sdt') walkBody(child(c, 'sdtContent') ?? {});
      else if (name === 'customXml' || name === 'ins' || name === 'smartTag') walkBody(c);
    }
  };
  walkBody(body);
  endSection(child(body, 'sectPr'));
  const first = blocks[0]?.kind === 'geometry' ? blocks.shift() : undefined;
  const bodySize = defaultSize(zip, styles);
  return layoutFlow(blocks, {
    ...(first?.kind === 'geometry' ? { geometry: first.geometry } : {}),
    ...(bodySize ? { bodySize } : {}),
  });
}

/** Text of a cell: its paragraphs (and nested tables) one per line. */
function cellText(tc: XNode): string {
  const parts: string[] = [];
  const walk = (n: XNode) => {
    for (const c of children(n)) {
      const name = localName(c);
      if (name === 'p') parts.push(readParagraphText(c).text.replace(/\t/g, ' '));
      else if (name === 'tbl') for (const tr of childrenNamed(c, 'tr')) parts.push(childrenNamed(tr, 'tc').map(cellText).join(' | '));
      else if (name === 'sdt') walk(child(c, 'sdtContent') ?? {});
    }
  };
  walk(tc);
  return parts.filter((p) => p.trim()).join('\n');
}

/** A Word table as a grid: w:gridSpan widens a cell, w:vMerge continues the cell above. */
export function readTable(tbl: XNode): FlowTable {
  const cells: FlowTable['cells'] = [];
  /** col -> the cell open for vertical merging at that column */
  const open = new Map<number, FlowTable['cells'][number]>();
  const rows = childrenNamed(tbl, 'tr');
  let cols = 0;
  rows.forEach((tr, r) => {
    let col = Number(attr(path(tr, 'trPr', 'gridBefore') ?? {}, 'val') ?? 0) || 0;
    const tcs: XNode[] = [];
    for (const c of children(tr)) {
      const name = localName(c);
      if (name === 'tc') tcs.push(c);
      else if (name === 'sdt') tcs.push(...childrenNamed(child(c, 'sdtContent') ?? {}, 'tc'));
    }
    for (const tc of tcs) {
      const tcPr = child(tc, 'tcPr');
      const span = Math.max(1, Number(attr(child(tcPr ?? {}, 'gridSpan') ?? {}, 'val') ?? 1) || 1);
      const vMerge = tcPr ? child(tcPr, 'vMerge') : undefined;
      const vVal = vMerge ? attr(vMerge, 'val') ?? 'continue' : null;
      if (vVal === 'continue' && open.has(col)) {
        const above = open.get(col)!;
        above.rowSpan = r - above.row + 1;
        const more = cellText(tc);
        if (more.trim()) above.text += (above.text ? '\n' : '') + more;
      } else {
        const cell = { row: r, col, rowSpan: 1, colSpan: span, text: cellText(tc) };
        cells.push(cell);
        for (let k = 0; k < span; k++) open.delete(col + k);
        if (vVal === 'restart') open.set(col, cell);
      }
      col += span;
    }
    cols = Math.max(cols, col);
  });
  return { rows: rows.length, cols, cells };
}
