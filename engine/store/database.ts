import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

/**
 * Schema migrations, applied in order; `user_version` records how many ran.
 * Append only: a shipped migration is never edited.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    balance INTEGER,
    owner INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE usage_ledger (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    key_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    pages INTEGER NOT NULL,
    ref TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX usage_ledger_key ON usage_ledger(key_id, seq);
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    resource TEXT NOT NULL,
    key_id TEXT NOT NULL,
    mode TEXT NOT NULL,
    params TEXT NOT NULL,
    status TEXT NOT NULL,
    err_code TEXT,
    err_message TEXT,
    result TEXT,
    pages INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER
  );
  CREATE INDEX tasks_status ON tasks(status);
  CREATE INDEX tasks_created ON tasks(created_at);
  CREATE TABLE task_files (
    task_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    file_name TEXT NOT NULL,
    input_hash TEXT,
    source_url TEXT,
    format TEXT,
    status TEXT NOT NULL,
    page_count INTEGER NOT NULL DEFAULT 0,
    pages_hash TEXT,
    result TEXT,
    output_hash TEXT,
    output_name TEXT,
    err_code TEXT,
    err_message TEXT,
    PRIMARY KEY (task_id, idx)
  );
  CREATE INDEX task_files_input ON task_files(input_hash);
  CREATE INDEX task_files_output ON task_files(output_hash);
  CREATE TABLE documents (
    doc_id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    file_name TEXT NOT NULL,
    blob_hash TEXT NOT NULL,
    task_id TEXT,
    status TEXT NOT NULL,
    page_count INTEGER NOT NULL DEFAULT 0,
    err_code TEXT,
    err_message TEXT,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX documents_key ON documents(key_id);
  CREATE INDEX documents_blob ON documents(blob_hash);
  `,
];

/** Open (and migrate) the engine database at `<dataDir>/docai.sqlite` in WAL mode. */
export function openDatabase(dataDir: string): Db {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(join(dataDir, 'docai.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
