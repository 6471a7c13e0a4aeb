import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../engine/store/blob-store.js';
import { downloadToBlob, isPrivateAddress } from '../../../engine/tasks/url-download.js';

let server: Server;
let base: string;
let dir: string;
let store: BlobStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docai-dl-'));
  store = new BlobStore(dir);
  server = createServer((req, res) => {
    if (req.url === '/small') return res.end('0123456789');
    if (req.url === '/big-undeclared') {
      res.writeHead(200);
      let sent = 0;
      const push = () => {
        while (sent < 5000) {
          sent += 1000;
          if (!res.write(Buffer.alloc(1000, 1))) return res.once('drain', push);
        }
        res.end();
      };
      return push();
    }
    if (req.url === '/big-declared') {
      res.writeHead(200, { 'content-length': '999999' });
      return res.end();
    }
    if (req.url?.startsWith('/hop/')) {
      const n = Number(req.url.slice(5));
      res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/small' });
      return res.end();
    }
    if (req.url === '/stall') return void res.writeHead(200);
    res.writeHead(500);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

const opts = { allowPrivate: true, maxBytes: 2000, timeoutMs: 1500, maxRedirects: 3 };

describe('isPrivateAddress', () => {
  it('classifies loopback, private, link-local, CGNAT, mapped and public addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('downloadToBlob', () => {
  it('downloads into the blob store, following redirects up to the limit', async () => {
    const r = await downloadToBlob(`${base}/hop/2`, store, opts);
    expect(r.size).toBe(10);
    expect(store.read(r.hash).toString()).toBe('0123456789');
    await expect(downloadToBlob(`${base}/hop/5`, store, opts)).rejects.toThrow(/more than 3 redirects/);
  });

  it('stops at the size limit while streaming and from the declared length', async () => {
    await expect(downloadToBlob(`${base}/big-undeclared`, store, opts)).rejects.toMatchObject({ code: 'FILE_DOWNLOAD_FAILED' });
    await expect(downloadToBlob(`${base}/big-declared`, store, opts)).rejects.toMatchObject({ code: 'FILE_DOWNLOAD_FAILED' });
  });

  it('times out, refuses other schemes, HTTP errors and (by default) loopback', async () => {
    await expect(downloadToBlob(`${base}/stall`, store, opts)).rejects.toThrow(/did not finish within 2 s|timed out/);
    await expect(downloadToBlob('file:///etc/passwd', store, opts)).rejects.toThrow(/only http and https/);
    await expect(downloadToBlob(`${base}/err`, store, opts)).rejects.toThrow(/HTTP 500/);
    await expect(downloadToBlob(`${base}/small`, store, { ...opts, allowPrivate: false })).rejects.toThrow(/private network/);
    await expect(downloadToBlob(`http://localhost:${new URL(base).port}/small`, store, { ...opts, allowPrivate: false })).rejects.toThrow(/private network/);
  });
});
