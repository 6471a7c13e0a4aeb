import type { Settings } from '../core/config.js';
import type { Page } from '../core/page.js';
import type { ParseResult } from '../core/results.js';

/**
 * What every route module receives. Built once by the server (engine/api/server.ts) from store/ and tasks/.
 * Route modules translate HTTP <-> these calls; no pipeline logic lives in api/.
 */
export interface KeyRecord {
  id: string;
  name: string;
  /** pages left; null = unlimited */
  balance: number | null;
  /** the owner key sees every document in the library */
  owner: boolean;
}

export interface KeyService {
  /** Raw key from `api-key` or `Authorization: Bearer`; null when missing, unknown or revoked. Constant-time compare. */
  authenticate(raw: string | undefined): KeyRecord | null;
}

export interface UsageService {
  /** Pages left for this key, null when unlimited. */
  balance(keyId: string): number | null;
  /** Debit pages (may go negative once) and write a ledger row. */
  debit(keyId: string, pages: number, kind: 'parse' | 'extract' | 'mask' | 'chat' | 'files', ref: string): void;
}

export interface LinkService {
  /** Absolute signed, expiring URL for a stored file path such as `/files/docs/<docId>` (query params appended). */
  sign(path: string, extraQuery?: Record<string, string>): string;
}

/** A document in the chat library. */
export interface LibraryDocument {
  docId: string;
  ownerKeyId: string;
  fileName: string;
  pageCount: number;
}

export interface IndexableDocument extends LibraryDocument {
  /** content hash of the original file in the blob store */
  blobHash: string;
  pages: Page[];
  /** the pro-mode parse result when one was built (tables with cells, titles) */
  parse?: ParseResult;
}

export interface LibraryService {
  indexDocument(doc: IndexableDocument): void;
  removeDocument(docId: string): void;
  listDocuments(key: KeyRecord): LibraryDocument[];
  getDocument(docId: string): (LibraryDocument & { blobHash: string }) | null;
}

export interface AppContext {
  settings: Settings;
  keys: KeyService;
  usage: UsageService;
  links: LinkService;
  library: LibraryService;
  /** this server's own base URL, e.g. http://127.0.0.1:8787 */
  baseUrl(): string;
}
