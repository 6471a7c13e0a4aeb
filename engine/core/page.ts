import type { BBox } from './geometry.js';

/**
 * The one page model every pipeline consumes (parse, extract, mask, chat indexing).
 * `formats/` fills it from what the file says, `vision/` from what the pixels say (OCR).
 * It is plain JSON so that it can cross process boundaries and be cached by content hash.
 */
export interface TextRun {
  text: string; // NFKC-normalised
  bbox: BBox;
  fontSize: number; // in page pixels
  fontName?: string;
  bold?: boolean;
  italic?: boolean;
}

export interface TextLine {
  text: string; // NFKC-normalised, runs joined in reading order
  bbox: BBox;
  runs: TextRun[];
  fontSize: number; // dominant size in page pixels
  bold: boolean;
  source: 'text' | 'ocr';
  /** OCR recognition confidence 0..1; 1 for a text layer. */
  confidence: number;
}

/** A ruling line or the edge of a filled rectangle (vector graphics or detected in pixels). */
export interface RuleLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
}

export interface ImageRegion {
  bbox: BBox;
}

export interface TableCell {
  row: number; // 0-based
  col: number;
  rowSpan: number;
  colSpan: number;
  text: string;
  bbox: BBox;
}

/** A table whose structure is known (from the file, or found by vision/table). */
export interface TableGrid {
  bbox: BBox;
  rows: number;
  cols: number;
  cells: TableCell[];
}

/**
 * A block whose type the file itself states (DOCX heading styles, HTML <h1>, spreadsheet sheets,
 * slide titles). Layout inference is skipped for pages that carry these.
 */
export interface SourceBlock {
  type: 'Title' | 'Text' | 'Table' | 'Figure';
  text: string;
  bbox: BBox;
  /** Heading level 1..6 for titles. */
  level?: number;
  table?: TableGrid;
  caption?: string;
  /** Page furniture (header, footer, page number) rather than content. */
  furniture?: boolean;
}

/**
 * A region a learned layout model found on the page image, in page pixels (engine/vision/layout/learned).
 * `label` is the model's own class name; `type`/`role` are what it maps to in the spec's vocabulary.
 */
export interface LayoutDetection {
  type: 'Title' | 'Text' | 'Table' | 'Figure';
  /** caption/note attach to a table or figure; furniture (header, footer, page number) leaves the tree. */
  role?: 'caption' | 'note' | 'furniture';
  label: string;
  score: number;
  bbox: BBox;
  /** Heading level the label states (a document title is 1). */
  level?: number;
}

export interface Page {
  pageNumber: number; // 1-based
  width: number; // layout_width in page pixels
  height: number; // layout_height
  lines: TextLine[];
  rules: RuleLine[];
  images: ImageRegion[];
  /** Present when the format states its structure; parse then uses it instead of layout rules. */
  sourceBlocks?: SourceBlock[];
  /** True when the text came from OCR (scan, image, or a PDF page without a usable text layer). */
  ocr: boolean;
  /** Clockwise degrees the page image was turned to make it upright (0, 90, 180, 270), plus deskew. */
  rotation: number;
  /** Set before parse when a learned layout model is configured: what it found on this page's image. */
  layoutDetections?: LayoutDetection[];
  /** How parse uses layoutDetections: the model's regions replace the rules, or vote with them. */
  layoutMode?: 'replace' | 'vote';
}

export type DocumentFormat =
  | 'pdf'
  | 'png'
  | 'jpg'
  | 'bmp'
  | 'tiff'
  | 'gif'
  | 'webp'
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'html'
  | 'txt'
  | 'doc'
  | 'xls'
  | 'ppt';

export interface DocumentPages {
  format: DocumentFormat;
  pages: Page[];
}
