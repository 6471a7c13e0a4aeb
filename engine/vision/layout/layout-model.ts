import type { BBox } from '../../core/geometry.js';
import type { Page, TableGrid, TextLine } from '../../core/page.js';

export type RegionType = 'Title' | 'Text' | 'Table' | 'Figure';

/**
 * A region of one page as layout analysis sees it. `role` marks regions that are not body content:
 * captions and notes are attached to the nearest table or figure by parse; furniture is left out of the tree.
 */
export interface LayoutRegion {
  type: RegionType;
  bbox: BBox;
  /** The text lines inside the region, in reading order (for a figure: the labels inside the graphic). */
  lines: TextLine[];
  text: string;
  /** Heading rank of a title: lower is higher in the section hierarchy (see headingLevel in rules-layout.ts). */
  level?: number;
  table?: TableGrid;
  role?: 'caption' | 'note';
  /** Dominant font size of the region's lines, in page pixels. */
  fontSize: number;
}

/**
 * One interface for every layout analyser: the rules in rules-layout.ts, or a learned model from the user's
 * model folder that replaces them or votes with them (a learned model runs its session before parse and answers
 * from its detections here, so parse stays synchronous). Regions come back in reading order.
 */
export interface LayoutModel {
  readonly name: string;
  analysePage(page: Page, context: LayoutContext): LayoutRegion[];
}

/** Document-level facts a page analyser needs: the body font size and the font sizes that mark headings. */
export interface LayoutContext {
  bodyFontSize: number;
  /** Heading font sizes seen in the document, largest first; index + 1 = heading level. */
  headingSizes: number[];
}
