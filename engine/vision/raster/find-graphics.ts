import { bboxIntersection, bboxUnion, mergeBoxesWhile, type BBox } from '../../core/geometry.js';
import type { ImageRegion, TextLine } from '../../core/page.js';
import { MARK, type InkMask } from './ink-mask.js';

export interface GraphicsOptions {
  /** Typical text line height of the page, in page pixels. */
  lineHeight: number;
  /** Page size in page pixels. */
  pageWidth: number;
  pageHeight: number;
}

/** A text line whose box is mostly solid ink, or that OCR read with little confidence, is likely a picture misread as text. */
const MIN_TEXT_CONFIDENCE = 0.5;
const MAX_TEXT_INK = 0.45;
/** A region whose box is this much text (lines of prose with a stamp or a signature over them) is no graphic. */
const MAX_TEXT_SHARE = 0.35;
/** The smallest graphic: its shorter side in text line heights, its area as a share of the page. */
const MIN_SIDE_LINES = 3;
const MIN_PAGE_SHARE = 0.008;

/**
 * Graphics of a page (photos, charts, diagrams, logos) from the ink that the text lines do not explain: the mask
 * (rules already erased) is counted on a coarse grid, text line boxes are cleared, what ink is left is dilated
 * by about half a line so that the strokes of one drawing join, and each joined blob that is large enough is a
 * region. Specks, stray marks and ink among text lines (stamps, signatures) are left out.
 */
export function findGraphics(mask: InkMask, lines: readonly TextLine[], opts: GraphicsOptions): ImageRegion[] {
  const { width: mw, height: mh, scale: s, data } = mask;
  const cellPx = Math.max(4, Math.round(Math.min(opts.pageWidth, opts.pageHeight) / 250));
  const c = Math.max(1, Math.round(cellPx / s));
  const gw = Math.ceil(mw / c);
  const gh = Math.ceil(mh / c);
  const counts = new Uint16Array(gw * gh);
  for (let y = 0; y < mh; y++) {
    const g = ((y / c) | 0) * gw;
    const row = y * mw;
    for (let x = 0; x < mw; x++) if (data[row + x]! & MARK) counts[g + ((x / c) | 0)]!++;
  }
  const cellArea = c * c;
  const px = c * s; // page pixels per grid cell
  const textBoxes: BBox[] = [];
  for (const l of lines) {
    if (l.text.trim() === '' || l.confidence < MIN_TEXT_CONFIDENCE) continue;
    const [gx1, gy1, gx2, gy2] = gridBox(l.bbox, px, gw, gh);
    let ink = 0;
    for (let gy = gy1; gy < gy2; gy++) for (let gx = gx1; gx < gx2; gx++) ink += counts[gy * gw + gx]!;
    if (ink > MAX_TEXT_INK * (gx2 - gx1) * (gy2 - gy1) * cellArea) continue;
    textBoxes.push(l.bbox);
    for (let gy = gy1; gy < gy2; gy++) for (let gx = gx1; gx < gx2; gx++) counts[gy * gw + gx] = 0;
  }
  const minInk = Math.max(2, Math.round(0.04 * cellArea));
  const ink = new Uint8Array(gw * gh);
  for (let i = 0; i < ink.length; i++) ink[i] = counts[i]! >= minInk ? 1 : 0;
  const lh = opts.lineHeight;
  const solid = solidCells(ink, gw, gh, (1.8 * lh) / px, (0.8 * lh) / px);
  const reach = Math.max(1, Math.round((0.6 * lh) / px));
  const grown = dilate(ink, gw, gh, reach);
  const toPage = (b: BBox): BBox => [b[0] * px, b[1] * px, Math.min(opts.pageWidth, (b[2] + 1) * px), Math.min(opts.pageHeight, (b[3] + 1) * px)];
  const pageArea = opts.pageWidth * opts.pageHeight;
  const kept = components(grown, ink, solid, gw, gh)
    .filter((c) => c.solid)
    .map((c) => toPage(c.box))
    .filter((b) => {
      const w = b[2] - b[0];
      const h = b[3] - b[1];
      if (Math.min(w, h) < MIN_SIDE_LINES * lh || w * h < MIN_PAGE_SHARE * pageArea) return false;
      if (isPageDecoration(b, opts.pageWidth, opts.pageHeight, px)) return false;
      return textShare(b, textBoxes) <= MAX_TEXT_SHARE && !looksLikeTextBlock(mask, b, lh);
    });
  const merged = mergeNear(kept, 1.5 * lh);
  return joinPanels(merged, lines, 4 * lh).map((bbox) => ({ bbox: bbox.map((v) => Math.round(v)) as BBox }));
}

/**
 * Text that OCR did not read (small print, a caption set in a faint colour): ink in bands one line high,
 * stacked with blank rows between them, each band only partly inked. Drawings and photos run on over many
 * rows; the bars of a bar chart are solid.
 */
function looksLikeTextBlock(mask: InkMask, b: BBox, lh: number): boolean {
  const s = mask.scale;
  const x1 = Math.max(0, Math.floor(b[0] / s));
  const x2 = Math.min(mask.width, Math.ceil(b[2] / s));
  const y1 = Math.max(0, Math.floor(b[1] / s));
  const y2 = Math.min(mask.height, Math.ceil(b[3] / s));
  const w = x2 - x1;
  if (w <= 0 || y2 <= y1) return false;
  const bands: { from: number; to: number; ink: number }[] = [];
  let cur: { from: number; to: number; ink: number } | null = null;
  for (let y = y1; y < y2; y++) {
    let n = 0;
    const row = y * mask.width;
    for (let x = x1; x < x2; x++) if (mask.data[row + x]! & MARK) n++;
    if (n > 0.03 * w) {
      if (!cur) bands.push((cur = { from: y, to: y, ink: 0 }));
      cur.to = y;
      cur.ink += n;
    } else cur = null;
  }
  if (bands.length < 3) return false;
  const maxBand = (2 * lh) / s;
  const lineLike = bands.filter((band) => band.to - band.from + 1 <= maxBand && band.ink < 0.5 * w * (band.to - band.from + 1));
  const covered = lineLike.reduce((sum, band) => sum + band.to - band.from + 1, 0);
  return lineLike.length >= 0.8 * bands.length && covered >= 0.3 * (y2 - y1);
}

/**
 * Panels of one figure set apart by white space: regions within `reach` of each other whose joint box holds no
 * running text (a line of text wider than half the joint box that is not inside either region).
 */
function joinPanels(boxes: BBox[], lines: readonly TextLine[], reach: number): BBox[] {
  const inside = (l: TextLine, b: BBox): boolean => {
    const cx = (l.bbox[0] + l.bbox[2]) / 2;
    const cy = (l.bbox[1] + l.bbox[3]) / 2;
    return cx >= b[0] && cx <= b[2] && cy >= b[1] && cy <= b[3];
  };
  return mergeBoxesWhile(boxes, (a, b) => {
    if (Math.max(a[0], b[0]) - Math.min(a[2], b[2]) > reach || Math.max(a[1], b[1]) - Math.min(a[3], b[3]) > reach) return false;
    const u = bboxUnion([a, b]);
    return !lines.some((l) => l.text.trim() !== '' && !inside(l, a) && !inside(l, b) && inside(l, u) && l.bbox[2] - l.bbox[0] > 0.5 * (u[2] - u[0]));
  });
}

/**
 * Page decoration rather than a picture: a band along an edge of the page (a coloured header or side bar, the
 * shadow of a scanner's lid or of a book's spine) that runs along most of that edge and not far into the page,
 * or the background around or behind the whole page.
 */
function isPageDecoration(b: BBox, pw: number, ph: number, px: number): boolean {
  const w = b[2] - b[0];
  const h = b[3] - b[1];
  const edge = Math.max(2 * px, 0.01 * Math.min(pw, ph));
  const atLeftOrRight = b[0] <= edge || b[2] >= pw - edge;
  const atTopOrBottom = b[1] <= edge || b[3] >= ph - edge;
  // Touching all four edges, or nearly the whole page: what lies around or behind the page (the table a page
  // was photographed on, a scanner's dark border, a background picture), not a graphic on it.
  if ((b[0] <= edge && b[2] >= pw - edge && b[1] <= edge && b[3] >= ph - edge) || w * h > 0.85 * pw * ph) return true;
  if (atLeftOrRight && (w < 0.05 * pw || (h > 0.6 * ph && w < 0.2 * pw) || (w < 0.1 * pw && h > 4 * w))) return true;
  if (atTopOrBottom && (h < 0.05 * ph || (w > 0.6 * pw && h < 0.2 * ph) || (h < 0.1 * ph && w > 4 * h))) return true;
  return false;
}

/**
 * Cells of ink blobs (8-neighbours) that are at least `minH` cells tall and `minW` wide: drawings, bars, photos.
 * Ink that OCR did not read as text (stray letters, digits of a formula) is made of smaller blobs.
 */
function solidCells(ink: Uint8Array, w: number, h: number, minH: number, minW: number): Uint8Array {
  const out = new Uint8Array(w * h);
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const members: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
    seen[start] = 1;
    stack.push(start);
    members.length = 0;
    while (stack.length) {
      const i = stack.pop()!;
      members.push(i);
      const x = i % w;
      const y = (i - x) / w;
      if (x < x1) x1 = x;
      if (x > x2) x2 = x;
      if (y < y1) y1 = y;
      if (y > y2) y2 = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= w) continue;
          const j = ny * w + nx;
          if (ink[j] && !seen[j]) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
    }
    if (y2 - y1 + 1 >= minH && x2 - x1 + 1 >= minW) for (const i of members) out[i] = 1;
  }
  return out;
}

function gridBox(b: BBox, px: number, gw: number, gh: number): [number, number, number, number] {
  return [Math.max(0, Math.floor(b[0] / px)), Math.max(0, Math.floor(b[1] / px)), Math.min(gw, Math.ceil(b[2] / px)), Math.min(gh, Math.ceil(b[3] / px))];
}

/** Binary dilation by a (2r+1) square, as a horizontal then a vertical running window. */
function dilate(src: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const tmp = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let n = 0;
    for (let x = 0; x < Math.min(w, r); x++) n += src[row + x]!;
    for (let x = 0; x < w; x++) {
      if (x + r < w) n += src[row + x + r]!;
      if (x - r - 1 >= 0) n -= src[row + x - r - 1]!;
      tmp[row + x] = n > 0 ? 1 : 0;
    }
  }
  const out = new Uint8Array(w * h);
  for (let x = 0; x < w; x++) {
    let n = 0;
    for (let y = 0; y < Math.min(h, r); y++) n += tmp[y * w + x]!;
    for (let y = 0; y < h; y++) {
      if (y + r < h) n += tmp[(y + r) * w + x]!;
      if (y - r - 1 >= 0) n -= tmp[(y - r - 1) * w + x]!;
      out[y * w + x] = n > 0 ? 1 : 0;
    }
  }
  return out;
}

/**
 * Connected blobs of `grown` (4-neighbours); each blob's box is the box of its cells that hold ink in `ink`, and
 * it is solid when one of them is a `solid` cell.
 */
function components(grown: Uint8Array, ink: Uint8Array, solid: Uint8Array, w: number, h: number): { box: BBox; solid: boolean }[] {
  const label = new Int32Array(w * h).fill(-1);
  const stack: number[] = [];
  const out: { box: BBox; solid: boolean }[] = [];
  for (let start = 0; start < grown.length; start++) {
    if (!grown[start] || label[start]! >= 0) continue;
    const id = out.length;
    let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
    let isSolid = false;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      if (solid[i]) isSolid = true;
      if (ink[i]) {
        if (x < x1) x1 = x;
        if (x > x2) x2 = x;
        if (y < y1) y1 = y;
        if (y > y2) y2 = y;
      }
      if (x > 0 && grown[i - 1] && label[i - 1]! < 0) (label[i - 1] = id), stack.push(i - 1);
      if (x < w - 1 && grown[i + 1] && label[i + 1]! < 0) (label[i + 1] = id), stack.push(i + 1);
      if (y > 0 && grown[i - w] && label[i - w]! < 0) (label[i - w] = id), stack.push(i - w);
      if (y < h - 1 && grown[i + w] && label[i + w]! < 0) (label[i + w] = id), stack.push(i + w);
    }
    out.push({ box: [x1, y1, x2, y2], solid: isSolid });
  }
  return out.filter((c) => Number.isFinite(c.box[0]));
}

/** Share of the box covered by text line boxes. */
function textShare(b: BBox, texts: readonly BBox[]): number {
  let covered = 0;
  for (const t of texts) covered += bboxIntersection(b, t);
  return covered / Math.max(1, (b[2] - b[0]) * (b[3] - b[1]));
}

/** Boxes that overlap or lie within `gap` of each other become one. */
function mergeNear(boxes: BBox[], gap: number): BBox[] {
  return mergeBoxesWhile(boxes, (a, b) => Math.max(a[0], b[0]) - Math.min(a[2], b[2]) <= gap && Math.max(a[1], b[1]) - Math.min(a[3], b[3]) <= gap);
}
