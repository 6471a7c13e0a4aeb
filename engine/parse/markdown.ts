import type { ParseNode } from '../core/results.js';

function depthOf(node: ParseNode, byId: Map<number, ParseNode>): number {
  let d = 1;
  let p = byId.get(node.parent_id);
  while (p) {
    if (p.type === 'Title') d++;
    p = byId.get(p.parent_id);
  }
  return Math.min(6, d);
}

/** The node tree as Markdown: titles as headings by their depth in the tree, tables as their text, figures by caption. */
export function nodesToMarkdown(nodes: readonly ParseNode[]): string {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const out: string[] = [];
  for (const n of nodes) {
    switch (n.type) {
      case 'Title':
        out.push(`${'#'.repeat(depthOf(n, byId))} ${n.text}`);
        break;
      case 'Table':
        if (n.caption) out.push(`**${n.caption}**`);
        out.push(n.text);
        if (n.note) out.push(`*${n.note}*`);
        break;
      case 'Figure':
        // No image file travels with the Markdown: the figure is named by its caption and page.
        out.push(`> Figure (page ${n.composing_blocks[0]?.page_number ?? 1})${n.caption ? `: ${n.caption}` : ''}`);
        if (n.note) out.push(`*${n.note}*`);
        break;
      default:
        out.push(n.text);
    }
  }
  return out.filter((s) => s.trim() !== '').join('\n\n') + '\n';
}
