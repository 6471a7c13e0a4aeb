import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fixture, form, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';
import { TITLE_BASELINE, TITLE_SIZE, TITLE_TEXT, TITLE_X } from '../fixtures/make-foundation.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
  removeHome(server.home);
});

const pdf = () => ({ name: 'report.pdf', data: fixture('foundation-title.pdf') });

describe('parse v1', () => {
  it('submit answers PROCESSING with a b_parse_ id, then the poll reaches SUCCESS with lite blocks', async () => {
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', pdf()]]) });
    expect(sub.status).toBe(200);
    expect(sub.json.success).toBe(true);
    expect(sub.json.data.status).toBe('PROCESSING');
    expect(sub.json.data.task_id).toMatch(/^b_parse_[0-9A-HJKMNP-TV-Z]{26}$/);
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(done.status).toBe(200);
    expect(done.json.data.status).toBe('SUCCESS');
    expect(done.json.data.task_id).toBe(sub.json.data.task_id);
    const results = done.json.data.results;
    expect(Array.isArray(results)).toBe(true);
    expect(results).toHaveLength(1);
    expect(results[0].file_name).toBe('report.pdf');
    const blocks = results[0].blocks as any[];
    const title = blocks[0];
    expect(title.type).toBe('Title');
    expect(title.text).toBe(TITLE_TEXT);
    expect(title.system).toBe('PixelSpace');
    expect(title.page_number).toBe(1);
    expect(title.layout_width).toBe(1224);
    expect(title.layout_height).toBe(1584);
    const [x1, y1, x2, y2] = title.composing_blocks[0].coordinates as [number, number, number, number];
    // 144 dpi: x = 72 pt * 2; the baseline at 700 pt from the bottom is (792 - 700) * 2 = 184 px from the top
    expect(x1).toBeGreaterThanOrEqual(TITLE_X * 2 - 4);
    expect(x1).toBeLessThanOrEqual(TITLE_X * 2 + 4);
    const baselinePx = (792 - TITLE_BASELINE) * 2;
    expect(y2).toBeGreaterThanOrEqual(baselinePx - 4);
    expect(y2).toBeLessThanOrEqual(baselinePx + TITLE_SIZE * 2 * 0.3);
    expect(y1).toBeGreaterThanOrEqual(baselinePx - TITLE_SIZE * 2 * 1.2);
    expect(y1).toBeLessThanOrEqual(baselinePx - TITLE_SIZE * 2 * 0.6);
    // Helvetica-Bold at 24 pt: the title is about 390 pt wide
    expect(x2 - x1).toBeGreaterThan(700);
    expect(x2 - x1).toBeLessThan(860);
    expect(blocks.some((b) => b.type === 'Text' && b.text.includes('Revenue grew in every region'))).toBe(true);
  });

  it('pro mode returns a node tree whose first node is the title', async () => {
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'docai-parse-flash'], ['files[]', pdf()]]) });
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    const nodes = done.json.data.results[0].nodes as any[];
    expect(nodes[0].text).toBe(TITLE_TEXT);
    expect(nodes[0].type).toBe('Title');
    expect(nodes[0].relation).toBe('part_of');
    expect(nodes[0].parent_id).toBe(-1);
    expect(nodes[0].id).toBe(1);
  });

  it('one damaged file in a batch fails only its own entry (SUCCESS overall)', async () => {
    const body = form([['mode', 'lite'], ['files', pdf()], ['files', { name: 'broken.pdf', data: fixture('foundation-damaged.pdf') }]]);
    const sub = await call(server, 'POST', '/v1/docai/parse', { body });
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    const [ok, bad] = done.json.data.results;
    expect(ok.file_name).toBe('report.pdf');
    expect(ok.blocks[0].text).toBe(TITLE_TEXT);
    expect(bad.file_name).toBe('broken.pdf');
    expect(bad.status).toBe('FAILED');
    expect(bad.err_code).toBe('INVALID_DOCUMENT');
    expect(typeof bad.err_message).toBe('string');
    expect(bad.err_message.length).toBeGreaterThan(5);
  });

  it('PROCESSING -> ERROR when every file fails, with err_code and err_message in data', async () => {
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'broken.pdf', data: fixture('foundation-damaged.pdf') }]]) });
    expect(sub.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
    expect(done.json.data.status).toBe('ERROR');
    expect(done.json.data.err_code).toBe('INVALID_DOCUMENT');
    expect(done.json.data.results[0].status).toBe('FAILED');
  });

  it('refuses requests: 401 without a key, 400 MISSING_FILE, 400 unknown mode, 422 no accepted file', async () => {
    const noKey = await call(server, 'POST', '/v1/docai/parse', { key: null, body: form([['mode', 'lite'], ['files', pdf()]]) });
    expect(noKey.status).toBe(401);
    expect(noKey.json).toEqual({ success: false, err_code: 'API_UNAUTHORIZED', err_message: expect.any(String) });
    const badKey = await call(server, 'GET', '/v1/docai/parse/b_parse_X', { key: 'nope' });
    expect(badKey.status).toBe(401);
    const noFile = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite']]) });
    expect(noFile.status).toBe(400);
    expect(noFile.json.err_code).toBe('MISSING_FILE');
    const empty = await call(server, 'POST', '/v1/docai/parse', { body: form([]) });
    expect(empty.status).toBe(400);
    expect(empty.json.err_code).toBe('EMPTY_TASK');
    const notMultipart = await call(server, 'POST', '/v1/docai/parse', { body: { mode: 'lite' } });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.json.err_code).toBe('MISSING_FILE');
    const badMode = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'turbo'], ['files', pdf()]]) });
    expect(badMode.status).toBe(400);
    expect(badMode.json.err_code).toBe('INVALID_PARAMETER');
    expect(badMode.json.err_message).toContain('turbo');
    const exe = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'a.pdf', data: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0]) }]]) });
    expect(exe.status).toBe(422);
    expect(exe.json.err_code).toBe('INVALID_DOCUMENT');
    const usage = await call(server, 'GET', '/v1/usage');
    expect(usage.json.data.ledger.every((e: any) => e.kind === 'parse')).toBe(true);
  });

  it('more than 50 files is INVALID_PARAMETER', async () => {
    const parts: [string, string | { name: string; data: Buffer }][] = [['mode', 'lite']];
    for (let i = 0; i < 51; i++) parts.push(['files', { name: `n${i}.txt`, data: Buffer.from(`note ${i}\n`) }]);
    const r = await call(server, 'POST', '/v1/docai/parse', { body: form(parts) });
    expect(r.status).toBe(400);
    expect(r.json.err_code).toBe('INVALID_PARAMETER');
  });

  it('a file over 100 MB is refused with 413 INVALID_PARAMETER while streaming', async () => {
    const big = Buffer.alloc(100 * 1024 * 1024 + 1024, 0x20);
    big.write('%PDF-1.7\n');
    const r = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'big.pdf', data: big }]]) });
    expect(r.status).toBe(413);
    expect(r.json.err_code).toBe('INVALID_PARAMETER');
    expect(r.json.err_message).toContain('100 MB');
  });

  it('unknown task id is 404 EMPTY_TASK; an id polled at another resource is 409 ILLEGALITY_TASK_TYPE', async () => {
    const unknown = await call(server, 'GET', '/v1/docai/parse/b_parse_01ARZ3NDEKTSV4RRFFQ69G5FAV');
    expect(unknown.status).toBe(404);
    expect(unknown.json.err_code).toBe('EMPTY_TASK');
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', pdf()]]) });
    const other = await call(server, 'GET', `/v1/docai/extract/${sub.json.data.task_id}`);
    expect(other.status).toBe(409);
    expect(other.json.err_code).toBe('ILLEGALITY_TASK_TYPE');
    const otherMask = await call(server, 'GET', `/v1/docai/mask/${sub.json.data.task_id}`);
    expect(otherMask.status).toBe(409);
    await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
  });

  it('DELETE removes a task (then 404) and debits are in the ledger', async () => {
    const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', pdf()]]) });
    const id = sub.json.data.task_id;
    await waitForTask(server, `/v1/docai/parse/${id}`);
    const usage = await call(server, 'GET', '/v1/usage');
    expect(usage.json.data.balance).toBe(null);
    expect(usage.json.data.ledger.some((e: any) => e.ref === id && e.pages === 1 && e.kind === 'parse')).toBe(true);
    const del = await call(server, 'DELETE', `/v1/docai/parse/${id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ success: true, data: { task_id: id, deleted: true } });
    const after = await call(server, 'GET', `/v1/docai/parse/${id}`);
    expect(after.status).toBe(404);
  });
});
