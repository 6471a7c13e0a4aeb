import type { Db } from './database.js';

export interface DocumentRow {
  doc_id: string;
  key_id: string;
  file_name: string;
  blob_hash: string;
  task_id: string | null;
  status: 'PROCESSING' | 'SUCCESS' | 'FAILED';
  page_count: number;
  err_code: string | null;
  err_message: string | null;
  created_at: number;
}

/**
 * Documents added to the chat library (POST /v1/files, and parse results): which key owns them, the blob of
 * the original file, and whether indexing finished. The searchable index itself is the library's (store/library).
 */
export class DocumentStore {
  constructor(private readonly db: Db) {}

  add(d: { docId: string; keyId: string; fileName: string; blobHash: string; taskId: string | null; status: DocumentRow['status'] }): void {
    this.db
      .prepare('INSERT OR IGNORE INTO documents (doc_id, key_id, file_name, blob_hash, task_id, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(d.docId, d.keyId, d.fileName, d.blobHash, d.taskId, d.status, Date.now());
  }

  setStatus(docId: string, status: DocumentRow['status'], pageCount: number, err?: { code: string; message: string }): void {
    this.db
      .prepare('UPDATE documents SET status = ?, page_count = ?, err_code = ?, err_message = ? WHERE doc_id = ?')
      .run(status, pageCount, err?.code ?? null, err?.message ?? null, docId);
  }

  get(docId: string): DocumentRow | null {
    return (this.db.prepare('SELECT * FROM documents WHERE doc_id = ?').get(docId) as DocumentRow | undefined) ?? null;
  }

  byTask(taskId: string): DocumentRow[] {
    return this.db.prepare('SELECT * FROM documents WHERE task_id = ?').all(taskId) as DocumentRow[];
  }

  list(keyId: string | null): DocumentRow[] {
    if (keyId === null) return this.db.prepare('SELECT * FROM documents ORDER BY created_at DESC, doc_id').all() as DocumentRow[];
    return this.db.prepare('SELECT * FROM documents WHERE key_id = ? ORDER BY created_at DESC, doc_id').all(keyId) as DocumentRow[];
  }

  delete(docId: string): void {
    this.db.prepare('DELETE FROM documents WHERE doc_id = ?').run(docId);
  }
}
