import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { checkFault } from './fault-points.js';

const HASH_RE = /^[0-9a-f]{64}$/;

/**
 * Content-addressed files on disk: `<dataDir>/blobs/<aa>/<sha256>`. Every write goes to a temp file
 * first and is renamed into place, so a blob is either absent or complete. Derived data (the page model
 * of a file) lives beside it under `derived/`, keyed by the source hash.
 */
export class BlobStore {
  readonly root: string;
  readonly tmpDir: string;
  constructor(dataDir: string) {
    this.root = join(dataDir, 'blobs');
    this.tmpDir = join(dataDir, 'tmp');
    mkdirSync(this.root, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
  }

  static isHash(s: string): boolean {
    return HASH_RE.test(s);
  }

  /** Absolute path of a blob; throws for anything that is not a sha256 (so no path can escape the store). */
  pathOf(hash: string): string {
    if (!BlobStore.isHash(hash)) throw new Error('not a blob hash');
    return join(this.root, hash.slice(0, 2), hash);
  }

  has(hash: string): boolean {
    return BlobStore.isHash(hash) && existsSync(this.pathOf(hash));
  }

  size(hash: string): number {
    return statSync(this.pathOf(hash)).size;
  }

  tempPath(suffix = ''): string {
    return join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}${suffix}`);
  }

  /** Move a finished temp file into the store under its hash (computed by the caller while writing). */
  adoptTemp(tempPath: string, hash: string): string {
    const dest = this.pathOf(hash);
    mkdirSync(join(this.root, hash.slice(0, 2)), { recursive: true });
    if (existsSync(dest)) rmSync(tempPath, { force: true });
    else renameSync(tempPath, dest);
    return hash;
  }

  /** Stream into the store, hashing on the way; returns hash and byte count. `limit` aborts a larger stream. */
  async putStream(src: Readable, limit = Infinity): Promise<{ hash: string; size: number }> {
    const tmp = this.tempPath();
    const h = createHash('sha256');
    let size = 0;
    try {
      await pipeline(
        src,
        async function* (source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            size += chunk.length;
            if (size > limit) throw new BlobTooLargeError(limit);
            h.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(tmp),
      );
      checkFault('blob-write');
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    const hash = h.digest('hex');
    this.adoptTemp(tmp, hash);
    return { hash, size };
  }

  async putFile(path: string): Promise<{ hash: string; size: number }> {
    return this.putStream(createReadStream(path));
  }

  putBuffer(buf: Buffer | string): string {
    const hash = createHash('sha256').update(buf).digest('hex');
    if (this.has(hash)) return hash;
    const tmp = this.tempPath();
    try {
      writeFileSync(tmp, buf);
      checkFault('blob-write');
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
    return this.adoptTemp(tmp, hash);
  }

  read(hash: string): Buffer {
    return readFileSync(this.pathOf(hash));
  }

  delete(hash: string): void {
    if (BlobStore.isHash(hash)) rmSync(this.pathOf(hash), { force: true });
    this.deleteDerived(hash);
  }

  /** Derived data for a source blob, e.g. its page model: `derived/<hash>.<name>`. */
  derivedPath(hash: string, name: string): string {
    if (!BlobStore.isHash(hash) || !/^[a-z0-9.-]+$/.test(name)) throw new Error('bad derived name');
    return join(this.root, 'derived', `${hash}.${name}`);
  }

  readDerived(hash: string, name: string): string | null {
    const p = this.derivedPath(hash, name);
    return existsSync(p) ? readFileSync(p, 'utf8') : null;
  }

  writeDerived(hash: string, name: string, data: string): void {
    const p = this.derivedPath(hash, name);
    mkdirSync(join(this.root, 'derived'), { recursive: true });
    const tmp = this.tempPath();
    writeFileSync(tmp, data);
    renameSync(tmp, p);
  }

  deleteDerived(hash: string): void {
    if (!BlobStore.isHash(hash)) return;
    for (const name of DERIVED_NAMES) rmSync(this.derivedPath(hash, name), { force: true });
  }
}

/** Every derived name written anywhere, so deleting a blob deletes its derivations. */
export const DERIVED_NAMES = ['pages-v1.json', 'pages-v1-ocr.json'];

export class BlobTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`file larger than ${limit} bytes`);
  }
}
