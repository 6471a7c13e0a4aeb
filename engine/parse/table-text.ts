import type { TableGrid } from '../core/page.js';

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ').trim();
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A table as Markdown (first row as header), or as HTML when a cell spans rows or columns. */
export function tableText(grid: TableGrid): string {
  if (grid.cells.some((c) => c.rowSpan > 1 || c.colSpan > 1)) return tableHtml(grid);
  const rows: string[][] = Array.from({ length: grid.rows }, () => new Array<string>(grid.cols).fill(''));
  for (const c of grid.cells) if (rows[c.row]) rows[c.row]![c.col] = escapeCell(c.text);
  if (rows.length === 0) return '';
  const line = (r: string[]): string => `| ${r.join(' | ')} |`;
  return [line(rows[0]!), line(new Array<string>(grid.cols).fill('---')), ...rows.slice(1).map(line)].join('\n');
}

export function tableHtml(grid: TableGrid): string {
  const byRow = new Map<number, typeof grid.cells>();
  for (const c of grid.cells) {
    let r = byRow.get(c.row);
    if (!r) byRow.set(c.row, (r = []));
    r.push(c);
  }
  const trs: string[] = [];
  for (let r = 0; r < grid.rows; r++) {
    const cells = (byRow.get(r) ?? []).sort((a, b) => a.col - b.col);
    const tds = cells.map((c) => {
      const attrs = (c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : '') + (c.colSpan > 1 ? ` colspan="${c.colSpan}"` : '');
      return `<td${attrs}>${escapeHtml(c.text)}</td>`;
    });
    trs.push(`<tr>${tds.join('')}</tr>`);
  }
  return `<table>${trs.join('')}</table>`;
}
