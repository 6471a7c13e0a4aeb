import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkSigner } from '../../../engine/store/signed-links.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-links-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LinkSigner', () => {
  it('signs path + expiry; verifies ok, tampered, other path, expired', () => {
    const links = new LinkSigner(dir, () => 3600, () => 'http://127.0.0.1:9000');
    const now = Date.UTC(2026, 0, 1);
    const url = new URL(links.sign('/files/docs/doc_1', { page: '3' }, now));
    expect(url.origin + url.pathname).toBe('http://127.0.0.1:9000/files/docs/doc_1');
    expect(url.searchParams.get('exp')).toBe(String(now / 1000 + 3600));
    expect(url.searchParams.get('page')).toBe('3');
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    expect(links.verify('/files/docs/doc_1', exp, sig, now)).toBe('ok');
    expect(links.verify('/files/docs/doc_2', exp, sig, now)).toBe('bad');
    expect(links.verify('/files/docs/doc_1', String(Number(exp) + 1), sig, now)).toBe('bad');
    expect(links.verify('/files/docs/doc_1', exp, sig.slice(1), now)).toBe('bad');
    expect(links.verify('/files/docs/doc_1', exp, undefined, now)).toBe('bad');
    expect(links.verify('/files/docs/doc_1', exp, sig, now + 3601_000)).toBe('expired');
  });

  it('keeps its secret across restarts (links stay valid) and differs between data folders', () => {
    const a = new LinkSigner(dir, () => 60, () => 'http://h');
    const u = new URL(a.sign('/files/x'));
    const b = new LinkSigner(dir, () => 60, () => 'http://h');
    expect(b.verify('/files/x', u.searchParams.get('exp'), u.searchParams.get('sig'))).toBe('ok');
    const other = mkdtempSync(join(tmpdir(), 'docai-links-'));
    const c = new LinkSigner(other, () => 60, () => 'http://h');
    expect(c.verify('/files/x', u.searchParams.get('exp'), u.searchParams.get('sig'))).toBe('bad');
    rmSync(other, { recursive: true, force: true });
  });
});
