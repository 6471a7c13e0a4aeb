import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { DocError } from '../core/errors.js';
import { BlobTooLargeError, type BlobStore } from '../store/blob-store.js';

export interface DownloadOptions {
  allowPrivate: boolean;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_DOWNLOAD: Omit<DownloadOptions, 'allowPrivate'> = {
  maxBytes: 100 * 1024 * 1024,
  timeoutMs: 60_000,
  maxRedirects: 5,
};

const fail = (message: string) => new DocError('FILE_DOWNLOAD_FAILED', message);

/**
 * Loopback, private, link-local, unique-local, CGNAT, multicast and unspecified addresses. A caller of the
 * local API must not be able to make it fetch from the user's own network (or the machine itself) unless
 * the user allowed that (setting allowPrivateUrls).
 */
export function isPrivateAddress(addr: string): boolean {
  const v = isIP(addr);
  if (v === 4) {
    const [a, b] = addr.split('.').map(Number) as [number, number];
    return (
      a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224
    );
  }
  if (v === 6) {
    const x = addr.toLowerCase();
    if (x === '::' || x === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(x);
  }
  return true;
}

/** Resolve once, check every address, and connect to the checked one (no DNS rebinding between check and use). */
async function resolveChecked(host: string, allowPrivate: boolean): Promise<{ address: string; family: number }> {
  const bare = host.replace(/^\[|\]$/g, '');
  let addrs: { address: string; family: number }[];
  if (isIP(bare)) addrs = [{ address: bare, family: isIP(bare) }];
  else {
    try {
      addrs = await lookup(bare, { all: true });
    } catch (err) {
      throw fail(`could not resolve host ${bare}: ${(err as Error).message}`);
    }
  }
  if (addrs.length === 0) throw fail(`could not resolve host ${bare}`);
  if (!allowPrivate && addrs.some((a) => isPrivateAddress(a.address))) {
    throw fail(`refused to download from ${bare}: loopback and private network addresses are not allowed (setting allowPrivateUrls)`);
  }
  return addrs[0]!;
}

/** Download a URL into the blob store inside a task: http/https only, redirects limited, size checked while streaming. */
export async function downloadToBlob(rawUrl: string, store: BlobStore, opts: DownloadOptions): Promise<{ hash: string; size: number; finalUrl: string }> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw fail('file_url is not a valid URL');
  }
  const deadline = Date.now() + opts.timeoutMs;
  for (let hop = 0; hop <= opts.maxRedirects; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail(`only http and https URLs can be downloaded, not ${url.protocol}`);
    if (url.username || url.password) throw fail('URLs with credentials are not downloaded');
    const target = await resolveChecked(url.hostname, opts.allowPrivate);
    const res = await request(url, target, deadline);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      url = new URL(res.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw fail(`the server answered HTTP ${status} for ${url.host}${url.pathname}`);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw fail(`the file is larger than ${Math.round(opts.maxBytes / 1048576)} MB`);
    }
    const left = deadline - Date.now();
    const timer = setTimeout(() => res.destroy(new Error('timeout')), Math.max(1, left));
    try {
      const { hash, size } = await store.putStream(res, opts.maxBytes);
      if (size === 0) throw fail('the downloaded file is empty');
      return { hash, size, finalUrl: url.href };
    } catch (err) {
      if (err instanceof DocError) throw err;
      if (err instanceof BlobTooLargeError) throw fail(`the file is larger than ${Math.round(opts.maxBytes / 1048576)} MB`);
      const msg = (err as Error).message === 'timeout' ? `the download did not finish within ${Math.round(opts.timeoutMs / 1000)} s` : `the download broke off: ${(err as Error).message}`;
      throw fail(msg);
    } finally {
      clearTimeout(timer);
    }
  }
  throw fail(`more than ${opts.maxRedirects} redirects`);
}

function request(url: URL, target: { address: string; family: number }, deadline: number): Promise<http.IncomingMessage> {
  const pinned: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.get(url, { lookup: pinned, headers: { 'user-agent': 'docai-desktop', accept: '*/*' } }, resolve);
    const left = deadline - Date.now();
    const timer = setTimeout(() => req.destroy(new Error('timeout')), Math.max(1, left));
    req.on('response', () => clearTimeout(timer));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(fail(err.message === 'timeout' ? 'the download timed out' : `could not connect to ${url.host}: ${err.message}`));
    });
  });
}
