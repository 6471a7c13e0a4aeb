import type { ParseNode, VlmUnderstanding } from '../core/results.js';
import { cellsOut, composingBlock } from './composing-blocks.js';
import type { DocItem } from './merge-continuations.js';

/**
 * pro / premium: items into the node tree. A title opens a section that holds everything up to the next title
 * of the same or a higher level; `path_info.path` lists the section titles from the top down to the node's parent.
 */
export function buildNodes(items: readonly DocItem[], understand?: (item: DocItem) => VlmUnderstanding | null): ParseNode[] {
  const nodes: ParseNode[] = [];
  const stack: { id: number; level: number; title: string }[] = [];
  items.forEach((item, i) => {
    const id = i + 1;
    if (item.type === 'Title') {
      const level = item.level ?? 1;
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    }
    const parent = stack[stack.length - 1];
    const path = stack.map((s) => s.title);
    const node: ParseNode = {
      id,
      text: item.text,
      type: item.type,
      relation: 'part_of',
      path_info: { path, path_context: path.join(' > ') },
      parent_id: parent ? parent.id : -1,
      composing_blocks: item.parts.map(composingBlock),
      caption: item.caption,
      note: item.note,
      vlm_understanding: understand && (item.type === 'Table' || item.type === 'Figure') ? understand(item) : null,
    };
    if (item.cells) node.cells = cellsOut(item.cells);
    nodes.push(node);
    if (item.type === 'Title') stack.push({ id, level: item.level ?? 1, title: item.text });
  });
  return nodes;
}
