import type { Page, TextLine } from '../core/page.js';
import type { FurnitureItem } from '../core/results.js';

/** Top and bottom share of the page where headers, footers and page numbers sit. */
const MARGIN = 0.085;

const PAGE_NUMBER = [
  /^(page|p\.|pg\.?)?\s*\d{1,4}(\s*(of|\/|／)\s*\d{1,4})?$/i,
  /^[-–—·•]\s*\d{1,4}\s*[-–—·•]$/,
  /^第\s*\d{1,4}\s*页(\s*[,，/／]?\s*共\s*\d{1,4}\s*页)?$/,
  /^[-–—]?\s*[ivxlc]{1,6}\s*[-–—]?$/i,
];

export function isPageNumberText(text: string): boolean {
  const t = text.trim();
  return PAGE_NUMBER.some((re) => re.test(t));
}

function zone(line: TextLine, page: Page): 'top' | 'bottom' | null {
  if (line.bbox[3] <= page.height * MARGIN) return 'top';
  if (line.bbox[1] >= page.height * (1 - MARGIN)) return 'bottom';
  return null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/**
 * Running heads and feet on a page of their own: a line at the very top or bottom edge, no larger than the
 * body text, set apart by a wide gap from the text next to it in its own column (a document title is larger;
 * a column's first or last line of body text is close to the next). A head or foot of two lines counts whole:
 * the gap is looked for beyond the lines already taken.
 */
function isolatedMarginLines(pages: readonly Page[]): Set<TextLine> {
  const out = new Set<TextLine>();
  for (const page of pages) {
    if (page.sourceBlocks || page.lines.length < 8) continue;
    const body = median(page.lines.map((l) => l.bbox[3] - l.bbox[1]));
    // A scan sits on its sheet with some offset and its margins vary: its running heads are looked for a little
    // further in than a born-digital page's.
    const edge = page.height * (page.ocr ? MARGIN : 0.06);
    const overlapsX = (a: TextLine, b: TextLine): boolean => Math.min(a.bbox[2], b.bbox[2]) > Math.max(a.bbox[0], b.bbox[0]);
    const small = (l: TextLine): boolean => l.bbox[3] - l.bbox[1] <= 1.25 * body;
    // Top: from the lowest candidate up, each needs a wide gap to the nearest line under it that is not taken.
    const top = page.lines.filter((l) => l.bbox[3] <= edge).sort((a, b) => b.bbox[1] - a.bbox[1]);
    for (const l of top) {
      const under = page.lines.filter((o) => o !== l && !out.has(o) && o.bbox[1] >= l.bbox[1] + 0.5 * (l.bbox[3] - l.bbox[1]) && overlapsX(o, l)).sort((a, b) => a.bbox[1] - b.bbox[1])[0];
      if (small(l) && under && under.bbox[1] - l.bbox[3] > 1.2 * body) out.add(l);
    }
    const bottom = page.lines.filter((l) => l.bbox[1] >= page.height - edge).sort((a, b) => a.bbox[1] - b.bbox[1]);
    for (const l of bottom) {
      const over = page.lines.filter((o) => o !== l && !out.has(o) && o.bbox[3] <= l.bbox[3] - 0.5 * (l.bbox[3] - l.bbox[1]) && overlapsX(o, l)).sort((a, b) => b.bbox[3] - a.bbox[3])[0];
      if (small(l) && over && l.bbox[1] - over.bbox[3] > 1.2 * body) out.add(l);
    }
  }
  return out;
}

function signature(text: string): string {
  return text.replace(/\s+/g, '').replace(/\d+/g, '#').toLowerCase();
}

/**
 * Headers, footers and page numbers: lines in the top or bottom margin that are page numbers, or whose text
 * (digits aside) recurs in the same margin on other pages.
 */
export function findFurniture(pages: readonly Page[]): Map<TextLine, FurnitureItem> {
  const out = new Map<TextLine, FurnitureItem>();
  const seen = new Map<string, Set<number>>();
  const candidates: { line: TextLine; page: Page; z: 'top' | 'bottom'; sig: string }[] = [];
  for (const page of pages) {
    if (page.sourceBlocks) continue;
    for (const line of page.lines) {
      const z = zone(line, page);
      if (!z || line.text.trim() === '') continue;
      const sig = `${z}|${signature(line.text)}`;
      candidates.push({ line, page, z, sig });
      let s = seen.get(sig);
      if (!s) seen.set(sig, (s = new Set()));
      s.add(page.pageNumber);
    }
  }
  const need = Math.max(2, Math.ceil(pages.length * 0.3));
  const isolated = isolatedMarginLines(pages);
  for (const c of candidates) {
    const base = { text: c.line.text.trim(), page_number: c.page.pageNumber, coordinates: c.line.bbox };
    if (isPageNumberText(c.line.text)) out.set(c.line, { kind: 'page_number', ...base });
    else if ((pages.length >= 2 && (seen.get(c.sig)?.size ?? 0) >= need) || isolated.has(c.line)) out.set(c.line, { kind: c.z === 'top' ? 'header' : 'footer', ...base });
  }
  return out;
}
