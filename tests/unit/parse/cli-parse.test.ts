import { describe, it, expect, vi, afterEach } from 'vitest';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runParseCommand } from '../../../engine/parse/cli-parse.js';

const dir = join(import.meta.dirname, '../../fixtures/generated');

describe('docai parse', () => {
  afterEach(() => vi.restoreAllMocks());

  it('writes Markdown per file, reports progress on stderr and fails only the unreadable file', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docai-parse-cli-'));
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
    const code = await runParseCommand([join(dir, 'parse-report.pdf'), join(dir, 'missing.pdf'), '--mode', 'pro', '--format', 'md', '--out', out]);
    expect(code).toBe(1);
    const md = readFileSync(join(out, 'parse-report.md'), 'utf8');
    expect(md.startsWith('# Quarterly Business Review\n\n## 1 Overview\n\n')).toBe(true);
    expect(md).toContain('### 1.1 Market Conditions');
    expect(existsSync(join(out, 'missing.md'))).toBe(false);
    const log = err.join('');
    expect(log).toContain('2/2');
    expect(log).toContain('missing.pdf: INVALID_DOCUMENT');
  });

  it('writes the API parse result as JSON in lite mode', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docai-parse-cli-'));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runParseCommand([join(dir, 'parse-two-column.pdf'), '--mode=lite', '--out', out])).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'parse-two-column.json'), 'utf8'));
    expect(result.file_name).toBe('parse-two-column.pdf');
    expect(result.blocks[0]).toMatchObject({ block_id: 1, type: 'Title', text: 'Field Notes on Coastal Birds' });
  });

  it('refuses an unknown mode with usage (exit 2)', async () => {
    const err: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
    expect(await runParseCommand(['x.pdf', '--mode', 'ultra'])).toBe(2);
    expect(err.join('')).toContain('unknown mode ultra');
  });
});
