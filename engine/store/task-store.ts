import type { DocumentFormat } from '../core/page.js';
import type { Db } from './database.js';
import { checkFault } from './fault-points.js';

export type TaskResource = 'parse' | 'parse-v2' | 'extract' | 'mask' | 'files';
export type TaskStatus = 'PROCESSING' | 'SUCCESS' | 'ERROR' | 'FAILED';
export type FileStatus = 'PENDING' | 'SUCCESS' | 'FAILED';

export interface TaskRow {
  id: string;
  resource: TaskResource;
  key_id: string;
  mode: string;
  params: string;
  status: TaskStatus;
  err_code: string | null;
  err_message: string | null;
  result: string | null;
  pages: number;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface TaskFileRow {
  task_id: string;
  idx: number;
  file_name: string;
  input_hash: string | null;
  source_url: string | null;
  format: DocumentFormat | null;
  status: FileStatus;
  page_count: number;
  pages_hash: string | null;
  result: string | null;
  output_hash: string | null;
  output_name: string | null;
  err_code: string | null;
  err_message: string | null;
}

export interface NewTaskFile {
  fileName: string;
  inputHash: string | null;
  sourceUrl?: string | null;
  format: DocumentFormat | null;
  /** a file refused at submit (type not accepted) is stored already failed */
  failed?: { code: string; message: string };
}

/** Tasks and their files in SQLite: the whole state of the queue, so a restart resumes where it stopped. */
export class TaskStore {
  constructor(private readonly db: Db) {}

  create(task: { id: string; resource: TaskResource; keyId: string; mode: string; params: unknown }, files: NewTaskFile[]): void {
    const now = Date.now();
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO tasks (id, resource, key_id, mode, params, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(task.id, task.resource, task.keyId, task.mode, JSON.stringify(task.params ?? {}), 'PROCESSING', now, now);
      const ins = this.db.prepare(
        'INSERT INTO task_files (task_id, idx, file_name, input_hash, source_url, format, status, err_code, err_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      files.forEach((f, i) =>
        ins.run(task.id, i, f.fileName, f.inputHash, f.sourceUrl ?? null, f.format, f.failed ? 'FAILED' : 'PENDING', f.failed?.code ?? null, f.failed?.message ?? null),
      );
    })();
  }

  get(id: string): TaskRow | null {
    return (this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined) ?? null;
  }

  files(taskId: string): TaskFileRow[] {
    return this.db.prepare('SELECT * FROM task_files WHERE task_id = ? ORDER BY idx').all(taskId) as TaskFileRow[];
  }

  file(taskId: string, idx: number): TaskFileRow | null {
    return (this.db.prepare('SELECT * FROM task_files WHERE task_id = ? AND idx = ?').get(taskId, idx) as TaskFileRow | undefined) ?? null;
  }

  unfinished(): TaskRow[] {
    return this.db.prepare("SELECT * FROM tasks WHERE status = 'PROCESSING' ORDER BY created_at, id").all() as TaskRow[];
  }

  setInput(taskId: string, idx: number, inputHash: string, format: DocumentFormat | null): void {
    this.db.prepare('UPDATE task_files SET input_hash = ?, format = ? WHERE task_id = ? AND idx = ?').run(inputHash, format, taskId, idx);
  }

  setPages(taskId: string, idx: number, pagesHash: string, pageCount: number, format: DocumentFormat): void {
    this.db
      .prepare('UPDATE task_files SET pages_hash = ?, page_count = ?, format = ? WHERE task_id = ? AND idx = ?')
      .run(pagesHash, pageCount, format, taskId, idx);
  }

  /** A file's result lands in one statement: either the whole result is there or the file is still pending. */
  fileSucceeded(taskId: string, idx: number, r: { result?: unknown; pageCount: number; outputHash?: string; outputName?: string }): void {
    checkFault('result-write');
    this.db
      .prepare(
        "UPDATE task_files SET status = 'SUCCESS', result = ?, page_count = ?, output_hash = ?, output_name = ?, err_code = NULL, err_message = NULL WHERE task_id = ? AND idx = ? AND status = 'PENDING'",
      )
      .run(r.result === undefined ? null : JSON.stringify(r.result), r.pageCount, r.outputHash ?? null, r.outputName ?? null, taskId, idx);
  }

  fileFailed(taskId: string, idx: number, code: string, message: string): void {
    this.db
      .prepare("UPDATE task_files SET status = 'FAILED', err_code = ?, err_message = ? WHERE task_id = ? AND idx = ? AND status = 'PENDING'")
      .run(code, message, taskId, idx);
  }

  /** Finish a task: status, a task-level result (emr's merged item), pages charged. Debit runs in the same transaction. */
  finish(taskId: string, r: { status: TaskStatus; errCode?: string; errMessage?: string; result?: unknown; pages: number }, debit?: () => void): boolean {
    let changed = false;
    this.db.transaction(() => {
      const now = Date.now();
      const info = this.db
        .prepare(
          "UPDATE tasks SET status = ?, err_code = ?, err_message = ?, result = ?, pages = ?, updated_at = ?, finished_at = ? WHERE id = ? AND status = 'PROCESSING'",
        )
        .run(r.status, r.errCode ?? null, r.errMessage ?? null, r.result === undefined ? null : JSON.stringify(r.result), r.pages, now, now, taskId);
      changed = info.changes === 1;
      // inside the transaction: a crash here must roll the final state back (fault tests)
      checkFault('task-finish');
      if (changed && debit) debit();
    })();
    return changed;
  }

  delete(taskId: string): TaskFileRow[] {
    const files = this.files(taskId);
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM task_files WHERE task_id = ?').run(taskId);
      this.db.prepare('DELETE FROM tasks WHERE id = ?').run(taskId);
    })();
    return files;
  }

  clearInput(taskId: string, idx: number): void {
    this.db.prepare('UPDATE task_files SET input_hash = NULL WHERE task_id = ? AND idx = ?').run(taskId, idx);
  }

  olderThan(cutoffMs: number): TaskRow[] {
    return this.db.prepare("SELECT * FROM tasks WHERE created_at < ? AND status != 'PROCESSING'").all(cutoffMs) as TaskRow[];
  }

  /** True when a blob is still referenced by a task file (input or output) or a library document. */
  blobInUse(hash: string): boolean {
    const a = this.db.prepare('SELECT 1 FROM task_files WHERE input_hash = ? OR output_hash = ? LIMIT 1').get(hash, hash);
    if (a) return true;
    return !!this.db.prepare('SELECT 1 FROM documents WHERE blob_hash = ? LIMIT 1').get(hash);
  }
}
