import type { ParseResult } from '../../api/types.js';

/**
 * Markdown of a parse result: the engine's own (premium) when present; otherwise from the nodes' or blocks'
 * reading order, titles as headings at their tree depth, tables from their cells.
 */
export function markdownOf(r: ParseResult): string {
  if (r.markdown) return r.markdown;
  const items = r.nodes ?? r.blocks ?? [];
  const depth = new Map<number, number>();
  const parts: string[] = [];
  for (const it of items) {
    const parent = 'parent_id' in it ? it.parent_id : -1;
    const id = 'id' in it ? it.id : it.block_id;
    const d = parent === -1 ? 0 : (depth.get(parent) ?? 0) + 1;
    depth.set(id, d);
    if (it.type === 'Title') parts.push(`${'#'.repeat(Math.min(6, d + 1))} ${it.text.trim()}`);
    else if (it.type === 'Table' && it.cells?.length) parts.push(tableMarkdown(it.cells));
    else if (it.type === 'Figure') parts.push(`![${(('caption' in it && it.caption) || it.text || 'figure').trim()}]()`);
    else parts.push(it.text.trim());
  }
  return parts.filter(Boolean).join('\n\n') + '\n';
}

function tableMarkdown(cells: { row: number; col: number; text: string }[]): string {
  const rows = Math.max(...cells.map((c) => c.row)) + 1;
  const cols = Math.max(...cells.map((c) => c.col)) + 1;
  const grid: string[][] = Array.from({ length: rows }, () => Array<string>(cols).fill(''));
  for (const c of cells) grid[c.row]![c.col] = c.text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(grid[0]!), line(Array<string>(cols).fill('---')), ...grid.slice(1).map(line)].join('\n');
}
