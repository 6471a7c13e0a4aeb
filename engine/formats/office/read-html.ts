import { Parser } from 'htmlparser2';
import { DocError } from '../../core/errors.js';
import type { Page } from '../../core/page.js';
import { layoutFlow, placeCells, type FlowBlock } from './flow-layout.js';

/** Elements whose content is never document text. */
const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'svg', 'math', 'iframe', 'object', 'canvas', 'select', 'button']);
/** Elements that end the paragraph being collected. */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'header', 'footer', 'main', 'aside', 'nav', 'blockquote', 'pre', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'tr', 'td', 'th', 'caption', 'figure', 'figcaption', 'hr', 'form', 'fieldset', 'address', 'body', 'html',
]);

/**
 * Open elements allowed at once. htmlparser2 keeps its open-element stack with unshift, so nesting n deep
 * costs n squared (200,000 nested divs: 82 s); real pages nest a few dozen levels.
 */
export const MAX_HTML_DEPTH = 2000;

interface TableBuild {
  rows: { text: string; rowSpan: number; colSpan: number }[][];
  cell: { text: string; rowSpan: number; colSpan: number } | null;
  caption: string;
}

/**
 * HTML: headings (h1-h6), paragraphs, lists (as Text), tables with rowspan/colspan; scripts, styles
 * and other non-text elements are dropped. Laid out on synthetic A4 pages.
 */
export function readHtml(html: string): Page[] {
  const blocks: FlowBlock[] = [];
  let text = '';
  let heading = 0;
  let listDepth = 0;
  let bold = 0;
  let boldText = 0;
  let dropDepth = 0;
  let pre = 0;
  const tables: TableBuild[] = [];
  const listCounters: (number | null)[] = [];
  let pendingPrefix = '';
  let depth = 0;

  const flush = () => {
    const t = pre ? text.replace(/^\n+|\s+$/g, '') : text.replace(/\s+/g, ' ').trim();
    if (t) {
      if (tables.length) {
        const tb = tables[tables.length - 1]!;
        if (tb.cell) tb.cell.text += (tb.cell.text ? '\n' : '') + t;
        else tb.caption += t;
      } else if (heading) blocks.push({ kind: 'heading', text: t, level: heading });
      else blocks.push({ kind: 'paragraph', text: pendingPrefix + t, list: pendingPrefix !== '', bold: boldText > 0 && boldText >= t.replace(/\s/g, '').length });
      pendingPrefix = '';
    }
    text = '';
    boldText = 0;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!VOID.has(name) && ++depth > MAX_HTML_DEPTH) {
          throw new DocError('INVALID_DOCUMENT', `the HTML nests elements more than ${MAX_HTML_DEPTH} deep; it cannot be read`);
        }
        if (dropDepth || DROPPED.has(name)) {
          if (!VOID.has(name)) dropDepth++;
          return;
        }
        if (name === 'br') {
          text += '\n';
          return;
        }
        if (BLOCK.has(name)) flush();
        if (/^h[1-6]$/.test(name)) heading = Number(name[1]);
        else if (name === 'ul' || name === 'ol') {
          listDepth++;
          listCounters.push(name === 'ol' ? 0 : null);
        } else if (name === 'li') {
          const n = listCounters[listCounters.length - 1];
          if (typeof n === 'number') {
            listCounters[listCounters.length - 1] = n + 1;
            pendingPrefix = `${n + 1}. `;
          } else pendingPrefix = '• ';
        } else if (name === 'table') tables.push({ rows: [], cell: null, caption: '' });
        else if (name === 'tr' && tables.length) tables[tables.length - 1]!.rows.push([]);
        else if ((name === 'td' || name === 'th') && tables.length) {
          const tb = tables[tables.length - 1]!;
          if (tb.rows.length === 0) tb.rows.push([]);
          tb.cell = { text: '', rowSpan: clampSpan(attribs.rowspan), colSpan: clampSpan(attribs.colspan) };
          tb.rows[tb.rows.length - 1]!.push(tb.cell);
        } else if (name === 'b' || name === 'strong') bold++;
        else if (name === 'pre') pre++;
      },
      ontext(data) {
        if (dropDepth) return;
        text += data;
        if (bold) boldText += data.replace(/\s/g, '').length;
      },
      onclosetag(name, implied) {
        if (!VOID.has(name)) depth = Math.max(0, depth - 1);
        if (dropDepth) {
          if (!VOID.has(name)) dropDepth--;
          return;
        }
        void implied;
        if (BLOCK.has(name)) flush();
        if (/^h[1-6]$/.test(name)) heading = 0;
        else if (name === 'ul' || name === 'ol') {
          listDepth = Math.max(0, listDepth - 1);
          listCounters.pop();
        } else if ((name === 'td' || name === 'th') && tables.length) tables[tables.length - 1]!.cell = null;
        else if (name === 'table' && tables.length) {
          const tb = tables.pop()!;
          const rows = tb.rows.filter((r) => r.length > 0);
          if (rows.length === 0) return;
          const grid = placeCells(rows);
          if (tables.length) {
            // a nested table is text inside the outer cell
            const outer = tables[tables.length - 1]!;
            const flat = rows.map((r) => r.map((c) => c.text).join(' | ')).join('\n');
            if (outer.cell) outer.cell.text += (outer.cell.text ? '\n' : '') + flat;
          } else {
            if (tb.caption.trim()) blocks.push({ kind: 'paragraph', text: tb.caption.trim() });
            blocks.push({ kind: 'table', table: grid });
          }
        } else if (name === 'b' || name === 'strong') bold = Math.max(0, bold - 1);
        else if (name === 'pre') pre = Math.max(0, pre - 1);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return layoutFlow(blocks);
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

function clampSpan(v: string | undefined): number {
  const n = Number(v ?? 1);
  return Number.isFinite(n) && n >= 1 ? Math.min(Math.floor(n), 1000) : 1;
}
