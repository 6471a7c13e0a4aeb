import type Database from 'better-sqlite3';
import type { IndexableDocument, KeyRecord, LibraryDocument, LibraryService } from '../api/context.js';
import type { BBox } from '../core/geometry.js';
import type { Page, TableCell } from '../core/page.js';
import type { ParseNode } from '../core/results.js';
import { matchExpression, tokenizeForSearch } from './library-tokens.js';

/** A text line as stored for the chat reader: text and box (page pixels). */
export interface StoredLine {
  t: string;
  b: BBox;
}

export interface StoredTable {
  docId: string;
  pageNumber: number;
  tableIndex: number;
  markdown: string;
  cells: Pick<TableCell, 'row' | 'col' | 'rowSpan' | 'colSpan' | 'text'>[];
}

export interface StoredPage {
  docId: string;
  fileName: string;
  pageNumber: number;
  text: string;
  lines: StoredLine[];
}

export interface SearchHit {
  docId: string;
  fileName: string;
  pageNumber: number;
  kind: 'page' | 'table';
  tableIndex: number | null;
  /** -bm25: higher is better */
  score: number;
  bm25: number;
}

export interface SearchOptions {
  limit?: number;
  docIds?: readonly string[];
  kind?: 'page' | 'table';
}

/**
 * The chat library: documents, their pages (text and positioned lines) and tables, with an FTS5
 * index over pre-tokenised text (jieba for Chinese). Per key: a key sees its own documents, the owner all.
 */
export class Library implements LibraryService {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** bumped on every change, so that readers can cache what they derive from pages */
  private changeCount = 0;

  get version(): number {
    return this.changeCount;
  }

  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  constructor(db: Database.Database) {
    this.db = db;
    db.exec(`
      CREATE TABLE IF NOT EXISTS library_documents (
        doc_id TEXT PRIMARY KEY,
        owner_key_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        page_count INTEGER NOT NULL,
        blob_hash TEXT NOT NULL,
        indexed_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS library_documents_owner ON library_documents(owner_key_id);
      CREATE TABLE IF NOT EXISTS library_pages (
        doc_id TEXT NOT NULL,
        page_number INTEGER NOT NULL,
        text TEXT NOT NULL,
        lines_json TEXT NOT NULL,
        PRIMARY KEY (doc_id, page_number)
      );
      CREATE TABLE IF NOT EXISTS library_tables (
        doc_id TEXT NOT NULL,
        page_number INTEGER NOT NULL,
        table_index INTEGER NOT NULL,
        markdown TEXT NOT NULL,
        cells_json TEXT NOT NULL,
        PRIMARY KEY (doc_id, table_index)
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS library_fts USING fts5(
        tokens, doc_id UNINDEXED, page_number UNINDEXED, kind UNINDEXED, table_index UNINDEXED,
        tokenize = 'porter unicode61'
      );
    `);
  }

  indexDocument(doc: IndexableDocument): void {
    const tables = collectTables(doc);
    const insertDoc = this.sql(
      `INSERT INTO library_documents (doc_id, owner_key_id, file_name, page_count, blob_hash, indexed_at) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const insertPage = this.sql(`INSERT INTO library_pages (doc_id, page_number, text, lines_json) VALUES (?, ?, ?, ?)`);
    const insertTable = this.sql(
      `INSERT INTO library_tables (doc_id, page_number, table_index, markdown, cells_json) VALUES (?, ?, ?, ?, ?)`,
    );
    const insertFts = this.sql(
      `INSERT INTO library_fts (tokens, doc_id, page_number, kind, table_index) VALUES (?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.deleteRows(doc.docId);
      insertDoc.run(doc.docId, doc.ownerKeyId, doc.fileName, doc.pageCount, doc.blobHash, Date.now());
      for (const page of doc.pages) {
        const lines: StoredLine[] = page.lines.map((l) => ({ t: l.text, b: l.bbox }));
        const text = page.lines.map((l) => l.text).join('\n');
        insertPage.run(doc.docId, page.pageNumber, text, JSON.stringify(lines));
        insertFts.run(tokenizeForSearch(`${doc.fileName}\n${text}`).join(' '), doc.docId, page.pageNumber, 'page', null);
      }
      tables.forEach((t, i) => {
        insertTable.run(doc.docId, t.pageNumber, i, t.markdown, JSON.stringify(t.cells));
        insertFts.run(tokenizeForSearch(t.markdown).join(' '), doc.docId, t.pageNumber, 'table', i);
      });
    })();
    this.changeCount++;
  }

  removeDocument(docId: string): void {
    this.db.transaction(() => this.deleteRows(docId))();
    this.changeCount++;
  }

  private deleteRows(docId: string): void {
    this.sql(`DELETE FROM library_fts WHERE doc_id = ?`).run(docId);
    this.sql(`DELETE FROM library_tables WHERE doc_id = ?`).run(docId);
    this.sql(`DELETE FROM library_pages WHERE doc_id = ?`).run(docId);
    this.sql(`DELETE FROM library_documents WHERE doc_id = ?`).run(docId);
  }

  listDocuments(key: KeyRecord): LibraryDocument[] {
    const rows = (
      key.owner
        ? this.sql(`SELECT * FROM library_documents ORDER BY indexed_at, doc_id`).all()
        : this.sql(`SELECT * FROM library_documents WHERE owner_key_id = ? ORDER BY indexed_at, doc_id`).all(key.id)
    ) as DocRow[];
    return rows.map(documentFromRow);
  }

  getDocument(docId: string): (LibraryDocument & { blobHash: string }) | null {
    const row = this.sql(`SELECT * FROM library_documents WHERE doc_id = ?`).get(docId) as DocRow | undefined;
    return row ? { ...documentFromRow(row), blobHash: row.blob_hash } : null;
  }

  /** BM25 search over the pages and tables the key may see. */
  search(key: KeyRecord, query: string | readonly string[], opts: SearchOptions = {}): SearchHit[] {
    const tokens = typeof query === 'string' ? tokenizeForSearch(query) : query;
    const expr = matchExpression(tokens);
    if (!expr) return [];
    const allowed = this.allowedDocIds(key, opts.docIds);
    if (allowed.length === 0) return [];
    const placeholders = allowed.map(() => '?').join(',');
    const kindClause = opts.kind ? `AND f.kind = ?` : '';
    const params: unknown[] = [expr, ...allowed];
    if (opts.kind) params.push(opts.kind);
    params.push(opts.limit ?? 10);
    const rows = this.db
      .prepare(
        `SELECT f.doc_id AS doc_id, f.page_number AS page_number, f.kind AS kind, f.table_index AS table_index,
                bm25(library_fts) AS bm25, d.file_name AS file_name
           FROM library_fts f JOIN library_documents d ON d.doc_id = f.doc_id
          WHERE library_fts MATCH ? AND f.doc_id IN (${placeholders}) ${kindClause}
          ORDER BY bm25(library_fts) LIMIT ?`,
      )
      .all(...params) as { doc_id: string; page_number: number; kind: 'page' | 'table'; table_index: number | null; bm25: number; file_name: string }[];
    return rows.map((r) => ({
      docId: r.doc_id,
      fileName: r.file_name,
      pageNumber: Number(r.page_number),
      kind: r.kind,
      tableIndex: r.table_index === null ? null : Number(r.table_index),
      score: -r.bm25,
      bm25: r.bm25,
    }));
  }

  getPage(docId: string, pageNumber: number): StoredPage | null {
    const row = this.db
      .prepare(
        `SELECT p.text AS text, p.lines_json AS lines_json, d.file_name AS file_name FROM library_pages p
           JOIN library_documents d ON d.doc_id = p.doc_id WHERE p.doc_id = ? AND p.page_number = ?`,
      )
      .get(docId, pageNumber) as { text: string; lines_json: string; file_name: string } | undefined;
    if (!row) return null;
    return { docId, fileName: row.file_name, pageNumber, text: row.text, lines: JSON.parse(row.lines_json) as StoredLine[] };
  }

  /** Plain text of the first pages of a document (cover, company name). */
  leadingText(docId: string, pages = 2): string {
    const rows = this.db
      .prepare(`SELECT text FROM library_pages WHERE doc_id = ? ORDER BY page_number LIMIT ?`)
      .all(docId, pages) as { text: string }[];
    return rows.map((r) => r.text).join('\n');
  }

  getTables(docId: string, pageNumber?: number): StoredTable[] {
    const rows = (
      pageNumber === undefined
        ? this.sql(`SELECT * FROM library_tables WHERE doc_id = ? ORDER BY table_index`).all(docId)
        : this.sql(`SELECT * FROM library_tables WHERE doc_id = ? AND page_number = ? ORDER BY table_index`).all(docId, pageNumber)
    ) as { doc_id: string; page_number: number; table_index: number; markdown: string; cells_json: string }[];
    return rows.map((r) => ({
      docId: r.doc_id,
      pageNumber: r.page_number,
      tableIndex: r.table_index,
      markdown: r.markdown,
      cells: JSON.parse(r.cells_json) as StoredTable['cells'],
    }));
  }

  private allowedDocIds(key: KeyRecord, restrict?: readonly string[]): string[] {
    const mine = this.listDocuments(key).map((d) => d.docId);
    if (!restrict) return mine;
    const set = new Set(restrict);
    return mine.filter((id) => set.has(id));
  }
}

interface DocRow {
  doc_id: string;
  owner_key_id: string;
  file_name: string;
  page_count: number;
  blob_hash: string;
}

function documentFromRow(r: DocRow): LibraryDocument {
  return { docId: r.doc_id, ownerKeyId: r.owner_key_id, fileName: r.file_name, pageCount: r.page_count };
}

interface CollectedTable {
  pageNumber: number;
  markdown: string;
  cells: StoredTable['cells'];
}

/** Tables from the parse result (Table nodes with cells) or, failing that, from the format's own table blocks. */
function collectTables(doc: IndexableDocument): CollectedTable[] {
  const out: CollectedTable[] = [];
  const nodes: ParseNode[] = doc.parse?.nodes ?? [];
  for (const n of nodes) {
    if (n.type !== 'Table' || !n.cells || n.cells.length === 0) continue;
    const cells = n.cells.map((c) => ({ row: c.row, col: c.col, rowSpan: c.row_span, colSpan: c.col_span, text: c.text }));
    const page = n.cells[0]?.page_number ?? n.composing_blocks[0]?.page_number ?? 1;
    out.push({ pageNumber: page, markdown: tableMarkdown(cells, n.caption), cells });
  }
  if (out.length > 0) return out;
  for (const page of doc.pages as Page[]) {
    for (const b of page.sourceBlocks ?? []) {
      if (b.type !== 'Table' || !b.table) continue;
      const cells = b.table.cells.map((c) => ({ row: c.row, col: c.col, rowSpan: c.rowSpan, colSpan: c.colSpan, text: c.text }));
      out.push({ pageNumber: page.pageNumber, markdown: tableMarkdown(cells, b.caption), cells });
    }
  }
  return out;
}

function tableMarkdown(cells: StoredTable['cells'], caption?: string): string {
  const rows = Math.max(0, ...cells.map((c) => c.row + 1));
  const cols = Math.max(0, ...cells.map((c) => c.col + 1));
  const grid: string[][] = Array.from({ length: rows }, () => Array.from({ length: cols }, () => ''));
  for (const c of cells) grid[c.row]![c.col] = c.text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = grid.map((r) => `| ${r.join(' | ')} |`);
  if (lines.length > 0) lines.splice(1, 0, `|${' --- |'.repeat(cols)}`);
  return (caption ? `${caption}\n\n` : '') + lines.join('\n');
}
