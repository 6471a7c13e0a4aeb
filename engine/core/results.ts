import type { BBox } from './geometry.js';
import type { TableCell } from './page.js';

/** The spec's result shapes (interface.md "Resources and their fields"), exactly. */

export type NodeType = 'Title' | 'Text' | 'Table' | 'Figure';

export interface ComposingBlock {
  system: 'PixelSpace';
  coordinates: BBox;
  page_number: number;
  layout_width: number;
  layout_height: number;
}

/** lite mode */
export interface ParseBlock {
  block_id: number;
  text: string;
  type: NodeType;
  system: 'PixelSpace';
  composing_blocks: ComposingBlock[];
  page_number: number;
  layout_width: number;
  layout_height: number;
  /** extension: cells of a Table block */
  cells?: TableCellOut[];
}

export interface TableCellOut {
  row: number;
  col: number;
  row_span: number;
  col_span: number;
  text: string;
  box: BBox;
  page_number: number;
}

export interface PathInfo {
  path: string[];
  path_context: string;
}

/** pro / premium mode */
export interface ParseNode {
  id: number;
  text: string;
  type: NodeType;
  relation: 'part_of';
  path_info: PathInfo;
  parent_id: number;
  composing_blocks: ComposingBlock[];
  caption: string;
  note: string;
  vlm_understanding: VlmUnderstanding | string | null;
  /** extension: cells of a Table node */
  cells?: TableCellOut[];
}

export type VlmUnderstanding = Record<string, unknown>;

/** Page furniture left out of nodes/blocks (extension). */
export interface FurnitureItem {
  kind: 'header' | 'footer' | 'page_number';
  text: string;
  page_number: number;
  coordinates: BBox;
}

export interface ParseResult {
  file_name: string;
  nodes?: ParseNode[];
  blocks?: ParseBlock[];
  markdown?: string;
  furniture?: FurnitureItem[];
}

export type ParseMode = 'lite' | 'pro' | 'premium';
export const PARSE_MODES: Record<string, ParseMode> = {
  lite: 'lite',
  pro: 'pro',
  premium: 'premium',
  'docai-parse-flash': 'pro',
  'docai-parse-premium': 'premium',
};

/** docai-extract item (closed / prompt / open) */
export interface ExtractItem {
  page_count: number;
  key_index: string[];
  extracted_fields: Record<string, string>;
}

export interface FlashHit {
  bbox: BBox;
  value: string;
  category: string;
  source_page: number;
  layout_width: number;
  layout_height: number;
}

export interface FlashItem {
  page_count: number;
  extracted_fields: Record<string, FlashHit[]>;
}

/** emr-extract: one merged item per task; several hits per field. */
export type EmrItem = Record<string, { value: string }[]>;

/** bl-extract / occ-extract: one item per page. */
export interface TemplatePageItem {
  page_number: number;
  extract_data: { key_index: string[]; extracted_fields: Record<string, string> }[];
}

export type ExtractMode = 'docai-extract' | 'docai-extract-flash' | 'emr-extract' | 'bl-extract' | 'occ-extract';

export interface MaskedRegion {
  page_number: number;
  bbox: BBox;
  category: string;
}

export interface MaskResultItem {
  index: number;
  page_count: number;
  file_name: string;
  status: 'SUCCESS' | 'FAILED';
  url?: string;
  masked_fields?: string[];
  /** extension: what was masked where, for the viewer */
  regions?: MaskedRegion[];
  err_code?: string;
  err_message?: string;
}

export type { TableCell };
