import type { DocumentFormat } from '../core/page.js';
import type { ExtractMode, MaskedRegion, ParseMode, ParseResult } from '../core/results.js';

/** Messages between the task engine and a worker child (plain JSON over the IPC channel). */
export interface SourceFile {
  /** absolute path of the blob holding the file */
  path: string;
  fileName: string;
  blobHash: string;
}

export type WorkerJob =
  | { type: 'read'; file: SourceFile; accepted: DocumentFormat[] | null }
  | { type: 'parse'; file: SourceFile; accepted: DocumentFormat[] | null; mode: ParseMode; withIndexParse: boolean }
  | { type: 'extract'; files: (SourceFile & { format: DocumentFormat })[]; mode: ExtractMode; jsonSchema: unknown | null; prompt: string }
  | { type: 'mask'; file: SourceFile & { format: DocumentFormat }; fields: string[]; outPath: string };

export interface ReadOutcome {
  format: DocumentFormat;
  pageCount: number;
}

export interface ParseOutcome extends ReadOutcome {
  result: ParseResult;
  /** the pro-mode result for the chat library, when asked for */
  indexParse?: ParseResult;
}

export interface ExtractOutcome {
  results: unknown[];
}

export interface MaskOutcome {
  pageCount: number;
  maskedFields: string[];
  regions: MaskedRegion[];
  outPath: string;
}

export type WorkerRequest = { id: number; dataDir: string; job: WorkerJob };
export type WorkerReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; code: string; message: string }
  | { ready: true };

/** Name of the cached page model of a blob (derived data in the blob store): `{ reader, doc }`. */
export const PAGES_CACHE_NAME = 'pages-v1.json';
