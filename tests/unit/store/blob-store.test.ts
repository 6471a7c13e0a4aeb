import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore, BlobTooLargeError } from '../../../engine/store/blob-store.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-blobs-'));
});
afterEach(() => {
  delete process.env.DOCAI_FAULT;
  rmSync(dir, { recursive: true, force: true });
});

describe('BlobStore', () => {
  it('stores by sha256 under blobs/<aa>/<hash>, deduplicating identical content', async () => {
    const store = new BlobStore(dir);
    const data = Buffer.from('hello blob store');
    const want = createHash('sha256').update(data).digest('hex');
    const a = await store.putStream(Readable.from([data]));
    expect(a).toEqual({ hash: want, size: data.length });
    expect(store.pathOf(want)).toBe(join(dir, 'blobs', want.slice(0, 2), want));
    expect(store.putBuffer(data)).toBe(want);
    expect(store.read(want).toString()).toBe('hello blob store');
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });

  it('refuses a stream over the limit and leaves no temp file', async () => {
    const store = new BlobStore(dir);
    await expect(store.putStream(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000)).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(readdirSync(store.tmpDir)).toEqual([]);
  });

  it('never maps a non-hash to a path', () => {
    const store = new BlobStore(dir);
    expect(() => store.pathOf('../owner.key')).toThrow();
    expect(() => store.pathOf('a'.repeat(63))).toThrow();
    expect(store.has('../../etc/passwd')).toBe(false);
  });

  it('a disk-full fault while writing leaves nothing behind', async () => {
    const store = new BlobStore(dir);
    process.env.DOCAI_FAULT = 'blob-write:ENOSPC';
    await expect(store.putStream(Readable.from([Buffer.from('x')]))).rejects.toThrow(/ENOSPC/);
    expect(() => store.putBuffer('y')).toThrow(/ENOSPC/);
    expect(readdirSync(store.tmpDir)).toEqual([]);
    expect(existsSync(join(dir, 'blobs'))).toBe(true);
    expect(readdirSync(join(dir, 'blobs'))).toEqual([]);
  });

  it('derived data lives beside the blob and goes with it', () => {
    const store = new BlobStore(dir);
    const h = store.putBuffer('source');
    store.writeDerived(h, 'pages-v1.json', '{"pages":[]}');
    expect(store.readDerived(h, 'pages-v1.json')).toBe('{"pages":[]}');
    store.delete(h);
    expect(store.has(h)).toBe(false);
    expect(store.readDerived(h, 'pages-v1.json')).toBe(null);
  });
});
