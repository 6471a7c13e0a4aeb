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

function understand(item: DocItem): ReturnType<typeof readTable> {
  return item.type === 'Table' ? readTable(item) : readChart(item);
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
    result.nodes = buildNodes(items, mode === 'premium' ? understand : undefined);
    if (mode === 'premium') result.markdown = nodesToMarkdown(result.nodes);
  }
  result.furniture = parsed.furniture;
  return result;
}
