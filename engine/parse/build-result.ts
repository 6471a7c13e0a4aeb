import type { DocumentPages } from '../core/page.js';
import type { ParseMode, ParseResult } from '../core/results.js';
import { buildBlocks } from './build-blocks.js';
import { buildNodes } from './build-nodes.js';
import { nodesToMarkdown } from './markdown.js';
import { mergeContinuations, type DocItem } from './merge-continuations.js';
import { parsePages } from './parse-pages.js';
import { readChart } from './read-chart.js';
import { readTable } from './read-table.js';

export { parsePages } from './parse-pages.js';
export type { ParsedDocument, ParsedRegion } from './parse-pages.js';

/** Text printed just above a table on its page (a units line such as "(In millions)"), else ''. */
function textAbove(items: readonly DocItem[], item: DocItem): string {
  const i = items.indexOf(item);
  const prev = items[i - 1];
  const top = item.parts[0]!;
  if (!prev || prev.type !== 'Text') return '';
  const last = prev.parts[prev.parts.length - 1]!;
  const gap = top.bbox[1] - last.bbox[3];
  return last.pageNumber === top.pageNumber && gap >= -2 && gap < 3 * Math.max(12, last.fontSize) ? prev.text : '';
}

function understanding(items: readonly DocItem[]): (item: DocItem) => ReturnType<typeof readTable> {
  return (item) => (item.type === 'Table' ? readTable(item, textAbove(items, item)) : readChart(item));
}

/**
 * The spec's parse result for one file. lite: blocks in reading order; pro: the node tree with continuations
 * merged; premium: pro plus Markdown and a reading of every table and figure. Furniture goes to `furniture`.
 */
export function buildParseResult(doc: DocumentPages, fileName: string, mode: ParseMode): ParseResult {
  const parsed = parsePages(doc);
  const result: ParseResult = { file_name: fileName };
  if (mode === 'lite') result.blocks = buildBlocks(parsed);
  else {
    const items = mergeContinuations(parsed.regions);
    result.nodes = buildNodes(items, mode === 'premium' ? understanding(items) : undefined);
    if (mode === 'premium') result.markdown = nodesToMarkdown(result.nodes);
  }
  result.furniture = parsed.furniture;
  return result;
}
