/** Result shapes come from the engine's spec types (type-only imports: nothing of the engine is bundled). */
export type {
  ParseResult,
  ParseNode,
  ParseBlock,
  ComposingBlock,
  NodeType,
  ExtractItem,
  FlashItem,
  FlashHit,
  EmrItem,
  TemplatePageItem,
  ExtractMode,
  MaskResultItem,
  MaskedRegion,
} from '../../engine/core/results.js';
export type { BBox } from '../../engine/core/geometry.js';

export type Operation = 'parse' | 'extract' | 'mask';
export type ParseModeName = 'lite' | 'pro' | 'premium';
export type ExtractModeName = 'docai-extract' | 'docai-extract-flash' | 'emr-extract' | 'bl-extract' | 'occ-extract';
export type MaskModeName = 'emr-mask';

/** Task status values of the spec (parse: ERROR, extract/mask: FAILED). */
export type TaskStatus = 'PENDING' | 'PROCESSING' | 'SUCCESS' | 'ERROR' | 'FAILED';

export interface TaskData {
  task_id: string;
  status: TaskStatus;
  object?: string;
  results?: unknown[];
  result?: unknown;
  err_code?: string;
  err_message?: string;
}

export interface Envelope {
  success: boolean;
  data?: TaskData;
  err_code?: string;
  err_message?: string;
}

/** A failed file's entry inside a finished task (ARCHITECTURE.md). */
export interface FailedFileEntry {
  file_name: string;
  status: 'FAILED';
  err_code: string;
  err_message: string;
}

export interface Annotation {
  file_name: string;
  url: string;
  page_number: number;
}

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
  annotations?: Annotation[];
}

export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  choices: { index: number; delta: { role?: string; content?: string; annotations?: Annotation[] }; finish_reason: string | null }[];
}
