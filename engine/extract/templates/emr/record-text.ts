import type { PageLayout } from '../../form-layout.js';

/**
 * The running text of a record: rows in reading order; a row that reaches the right margin continues on
 * the next row (wrapped paragraph) and is joined to it without a break; other rows end with a newline.
 */
export function recordText(layouts: PageLayout[]): string {
  const out: string[] = [];
  for (const layout of layouts) {
    const rows = layout.rows;
    if (rows.length === 0) continue;
    const right = Math.max(...rows.map((r) => r.tokens[r.tokens.length - 1]!.box[2]));
    const left = Math.min(...rows.map((r) => r.tokens[0]!.box[0]));
    rows.forEach((row, i) => {
      const text = row.tokens.map((t) => t.text).join(' ');
      const h = row.bottom - row.top;
      const end = row.tokens[row.tokens.length - 1]!.box[2];
      const next = rows[i + 1];
      const nextText = next ? next.tokens.map((t) => t.text).join(' ') : '';
      // A row that starts "小标题:" begins a new item even when the row above runs to the margin.
      const startsItem = /^\s*(?:\d{1,2}\s*[、.．]\s*)?[\u4e00-\u9fff/A-Za-z]{1,14}\s*[:：]/u.test(nextText);
      const wraps = next !== undefined && !startsItem && end >= right - 3 * h && next.tokens[0]!.box[0] <= left + 3 * h && next.top - row.bottom < h;
      out.push(text);
      out.push(wraps ? (/[a-z0-9,.]$/i.test(text) ? ' ' : '') : '\n');
    });
    out.push('\n');
  }
  return out.join('');
}
