import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LinkService } from '../api/context.js';

/**
 * Signed, expiring links for `{file_url}`: `<base><path>?exp=<unix s>&sig=<hmac>`. The HMAC (sha256, with a
 * secret kept in `<dataDir>/link.secret`) covers the path and the expiry, so a link opens exactly one file
 * until it expires. Extra query values (a page hint) ride along unsigned: they select nothing.
 */
export class LinkSigner implements LinkService {
  private readonly secret: Buffer;
  constructor(
    dataDir: string,
    private readonly ttlSeconds: () => number,
    private readonly base: () => string,
  ) {
    const file = join(dataDir, 'link.secret');
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    chmodSync(file, 0o600);
    this.secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  }

  private mac(path: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${path}\n${exp}`).digest('base64url');
  }

  sign(path: string, extraQuery: Record<string, string> = {}, nowMs = Date.now()): string {
    const exp = Math.floor(nowMs / 1000) + Math.max(1, Math.floor(this.ttlSeconds()));
    const q = new URLSearchParams({ exp: String(exp), sig: this.mac(path, exp), ...extraQuery });
    return `${this.base().replace(/\/$/, '')}${path}?${q.toString()}`;
  }

  /** 'ok', 'expired' or 'bad' for a request path (no query) and its exp/sig values. */
  verify(path: string, exp: unknown, sig: unknown, nowMs = Date.now()): 'ok' | 'expired' | 'bad' {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return 'bad';
    const want = Buffer.from(this.mac(path, Number(exp)));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return 'bad';
    if (Number(exp) * 1000 < nowMs) return 'expired';
    return 'ok';
  }
}
