import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixture, form, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  removeHome(server.home);
});

const invoice = () => ({ name: 'invoice.pdf', data: fixture('foundation-invoice.pdf') });
const record = () => ({ name: '王立新-出院记录.pdf', data: fixture('foundation-record.pdf') });
const schema = JSON.stringify({ type: 'object', properties: { 'Invoice Number': { type: 'string' }, 'Total Amount': { type: 'string' } } });

describe('extract', () => {
  it('docai-extract closed: PROCESSING -> SUCCESS with object create.extracted_result and one item per file', async () => {
    const sub = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'docai-extract'], ['json_schema', schema], ['files', invoice()]]) });
    expect(sub.status).toBe(200);
    expect(sub.json.data.task_id).toMatch(/^b_extract_[0-9A-Z]{26}$/);
    expect(sub.json.data.status).toBe('PROCESSING');
    const done = await waitForTask(server, `/v1/docai/extract/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    expect(done.json.data.object).toBe('create.extracted_result');
    const [item] = done.json.data.results;
    expect(item.page_count).toBe(1);
    expect(item.key_index).toEqual(['Invoice Number', 'Total Amount']);
    expect(item.extracted_fields['Invoice Number']).toContain('INV-2041');
  });

  it('flash has no object field; a text file in the batch fails its own entry', async () => {
    const sub = await call(server, 'POST', '/v1/docai/extract', {
      body: form([['mode', 'docai-extract-flash'], ['json_schema', schema], ['files', invoice()], ['files', { name: 'notes.txt', data: fixture('foundation-notes.txt') }]]),
    });
    const done = await waitForTask(server, `/v1/docai/extract/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    expect('object' in done.json.data).toBe(false);
    const [hit, refused] = done.json.data.results;
    expect(hit.page_count).toBe(1);
    expect(Array.isArray(hit.extracted_fields['Invoice Number'])).toBe(true);
    expect(refused).toEqual({ file_name: 'notes.txt', status: 'FAILED', err_code: 'INVALID_DOCUMENT', err_message: 'notes.txt: TXT files are not accepted by this endpoint' });
  });

  it('PROCESSING -> FAILED when every file fails', async () => {
    const sub = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'docai-extract'], ['files', { name: 'bad.pdf', data: fixture('foundation-damaged.pdf') }]]) });
    const done = await waitForTask(server, `/v1/docai/extract/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('FAILED');
    expect(done.json.data.err_code).toBe('INVALID_DOCUMENT');
  });

  it('request errors: json_schema not JSON, flash without schema, unknown mode, only refused types (422), too many files', async () => {
    const notJson = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'docai-extract'], ['json_schema', '{type: object'], ['files', invoice()]]) });
    expect(notJson.status).toBe(400);
    expect(notJson.json).toEqual({ success: false, err_code: 'INVALID_PARAMETER', err_message: 'json_schema is not valid JSON' });
    const huge = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'docai-extract'], ['prompt_cus', 'x'.repeat(1024 * 1024 + 10)], ['files', invoice()]]) });
    expect(huge.status).toBe(400);
    expect(huge.json).toEqual({ success: false, err_code: 'INVALID_PARAMETER', err_message: 'form field prompt_cus is larger than 1 MB' });
    const flash = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'docai-extract-flash'], ['json_schema', '{}'], ['files', invoice()]]) });
    expect(flash.status).toBe(400);
    expect(flash.json.err_message).toContain('docai-extract-flash');
    const mode = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'emr-mask'], ['files', invoice()]]) });
    expect(mode.status).toBe(400);
    expect(mode.json.err_message).toContain('emr-mask');
    const txt = await call(server, 'POST', '/v1/docai/extract', { body: form([['mode', 'docai-extract'], ['files', { name: 'notes.txt', data: fixture('foundation-notes.txt') }]]) });
    expect(txt.status).toBe(422);
    expect(txt.json.err_code).toBe('INVALID_DOCUMENT');
    const parts: [string, string | { name: string; data: Buffer }][] = [['mode', 'bl-extract']];
    for (let i = 0; i < 11; i++) parts.push(['files', invoice()]);
    const many = await call(server, 'POST', '/v1/docai/extract', { body: form(parts) });
    expect(many.status).toBe(400);
    expect(many.json.err_code).toBe('INVALID_PARAMETER');
  });
});

describe('mask', () => {
  it('emr-mask: PROCESSING -> SUCCESS; masked_0.pdf behind a signed link; the input is deleted', async () => {
    const sub = await call(server, 'POST', '/v1/docai/mask', { body: form([['mode', 'emr-mask'], ['files', record()]]) });
    expect(sub.status).toBe(200);
    expect(sub.json.data.task_id).toMatch(/^r_mask_[0-9A-Z]{26}$/);
    const done = await waitForTask(server, `/v1/docai/mask/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    expect(done.json.data.object).toBe('create.masked_result');
    const [item] = done.json.data.results;
    expect(item.index).toBe(0);
    expect(item.page_count).toBe(1);
    expect(item.file_name).toBe('masked_0.pdf');
    expect(item.status).toBe('SUCCESS');
    expect(item.masked_fields).toContain('患者姓名');
    const link = new URL(item.url);
    expect(link.pathname).toBe(`/files/masked/${sub.json.data.task_id}/masked_0.pdf`);
    const got = await fetch(link);
    expect(got.status).toBe(200);
    const bytes = Buffer.from(await got.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes.equals(fixture('foundation-record.pdf'))).toBe(false);
    const { createHash } = await import('node:crypto');
    const inputHash = createHash('sha256').update(fixture('foundation-record.pdf')).digest('hex');
    expect(existsSync(join(server.home, 'blobs', inputHash.slice(0, 2), inputHash))).toBe(false);
    const bad = new URL(link);
    bad.pathname = `/files/masked/${sub.json.data.task_id}/masked_1.pdf`;
    expect((await fetch(bad)).status).toBe(403);
    // deleting the task deletes the masked copy too
    expect((await call(server, 'DELETE', `/v1/docai/mask/${sub.json.data.task_id}`)).status).toBe(200);
    expect((await fetch(link)).status).toBe(404);
  });

  it('mask request errors: MISSING_FILE and unknown mode', async () => {
    const none = await call(server, 'POST', '/v1/docai/mask', { body: form([['mode', 'emr-mask']]) });
    expect(none.status).toBe(400);
    expect(none.json.err_code).toBe('MISSING_FILE');
    const mode = await call(server, 'POST', '/v1/docai/mask', { body: form([['mode', 'bl-mask'], ['files', record()]]) });
    expect(mode.status).toBe(400);
    expect(mode.json.err_message).toContain('bl-mask');
  });
});
