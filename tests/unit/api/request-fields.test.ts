import { describe, expect, it } from 'vitest';
import { cleanFileName } from '../../../engine/api/upload-names.js';
import { readJsonSchema } from '../../../engine/api/extract.js';
import { resourceOfId } from '../../../engine/api/task-views.js';

describe('cleanFileName', () => {
  it('drops directories, NUL and control characters; bounds the length keeping the extension', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('..\\..\\win.ini')).toBe('win.ini');
    expect(cleanFileName('a\u0000b\u0007c.pdf')).toBe('abc.pdf');
    expect(cleanFileName('..')).toBe('file');
    expect(cleanFileName(undefined)).toBe('file');
    const long = cleanFileName('x'.repeat(500) + '.pdf');
    expect(long).toHaveLength(200);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(cleanFileName('报告 2026.pdf')).toBe('报告 2026.pdf');
  });
});

describe('readJsonSchema', () => {
  it('not JSON -> INVALID_PARAMETER; empty or no properties -> null; else the schema', () => {
    expect(() => readJsonSchema('{type:')).toThrow('json_schema is not valid JSON');
    expect(readJsonSchema(undefined)).toBe(null);
    expect(readJsonSchema('{}')).toBe(null);
    expect(readJsonSchema('{"type":"object","properties":{}}')).toBe(null);
    expect(readJsonSchema('[1]')).toBe(null);
    expect(readJsonSchema('{"type":"object","properties":{"名称":{"type":"string"}}}')).toEqual({ type: 'object', properties: { 名称: { type: 'string' } } });
    let deep = '{"type":"string"}';
    for (let i = 0; i < 10_000; i++) deep = `{"type":"object","properties":{"k":${deep}}}`;
    expect(() => readJsonSchema(deep)).toThrow('json_schema is nested more than 32 levels deep');
  });
});

describe('resourceOfId', () => {
  it('maps task id prefixes to resources', () => {
    expect(resourceOfId('b_parse_01')).toBe('parse');
    expect(resourceOfId('b_extract_01')).toBe('extract');
    expect(resourceOfId('r_mask_01')).toBe('mask');
    expect(resourceOfId('parse_0000')).toBe('parse-v2');
    expect(resourceOfId('other')).toBe(null);
  });
});
