import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLock } from '../../../engine/store/data-dir-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docai-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('DataDirLock', () => {
  it('refuses a folder whose lock names a live process, takes over a dead one, releases on close', () => {
    writeFileSync(join(dir, 'server.lock'), String(process.ppid));
    expect(new DataDirLock(dir).acquire()).toBe(process.ppid);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, 'server.lock'), String(dead));
    const lock = new DataDirLock(dir);
    expect(lock.acquire()).toBe(null);
    expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(join(dir, 'server.lock'))).toBe(false);
  });
});
