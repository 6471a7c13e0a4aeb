import { request as httpRequest } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACME, CHAT_10K } from '../fixtures/make-chat.js';
import { call, fixture, form, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';

/**
 * The chat endpoint over real HTTP with the official `openai` client: a generated 10-K-like PDF is
 * parsed through the parse endpoint (which puts it in the library), then numeric questions are asked
 * and the numbers and cited pages asserted.
 */
let server: RunningServer;
let client: OpenAI;

type Annotated = { annotations?: { file_name: string; url: string; page_number: number }[] };

beforeAll(async () => {
  server = await startServer();
  const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'pro'], ['files', { name: CHAT_10K, data: fixture(CHAT_10K) }]]) });
  expect(sub.status).toBe(200);
  const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`, undefined, 60_000);
  expect(done.json.data.status).toBe('SUCCESS');
  client = new OpenAI({ apiKey: server.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
}, 120_000);

afterAll(async () => {
  await server.stop();
  removeHome(server.home);
});

describe('GET /v1/models', () => {
  it('lists fin-chat', async () => {
    const list = await client.models.list();
    expect(list.data.map((m) => m.id)).toEqual(['fin-chat']);
    expect((await client.models.retrieve('fin-chat')).owned_by).toBe('docai');
  });
});

describe('POST /v1/chat/completions (non-streaming)', () => {
  it('answers revenue growth from the income statement and cites page 3 with a signed link', async () => {
    const r = await client.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'What was ACME revenue growth from fiscal 2022 to fiscal 2023?' }] });
    expect(r.object).toBe('chat.completion');
    expect(r.id).toMatch(/^chatcmpl-/);
    expect(r.model).toBe('fin-chat');
    expect(typeof r.created).toBe('number');
    const choice = r.choices[0]!;
    expect(choice.finish_reason).toBe('stop');
    expect(choice.message.role).toBe('assistant');
    expect(choice.message.content!.split('\n')[0]).toContain('25.0%');
    expect(choice.message.content).toContain('$12,500 million');
    const ann = (choice.message as Annotated).annotations!;
    expect(ann.map((a) => [a.file_name, a.page_number])).toEqual([[CHAT_10K, ACME.incomePage]]);
    expect(ann[0]!.url).toMatch(/\/files\/docs\/[^?#]+\?.*#page=3$/);
    const file = await fetch(ann[0]!.url);
    expect(file.status).toBe(200);
    expect(r.usage!.prompt_tokens).toBeGreaterThan(5);
    expect(r.usage!.total_tokens).toBe(r.usage!.prompt_tokens + r.usage!.completion_tokens);
  });

  it('computes ratios from the balance sheet and the cash flow statement', async () => {
    const ask = async (q: string) => (await client.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: q }], temperature: 0 })).choices[0]!;
    const cr = await ask('What is the current ratio of ACME for fiscal 2023?');
    expect(cr.message.content!.split('\n')[0]).toContain('2.00');
    expect((cr.message as Annotated).annotations!.map((a) => a.page_number)).toEqual([ACME.balancePage]);
    const capex = await ask('How much did ACME spend on capital expenditures in FY2022?');
    expect(capex.message.content!.split('\n')[0]).toContain('$750 million');
    expect((capex.message as Annotated).annotations!.map((a) => a.page_number)).toEqual([ACME.cashPage]);
    const etr = await ask('What was the effective tax rate of ACME in 2023?');
    expect(etr.message.content!.split('\n')[0]).toContain('21.0%');
  });

  it('follows the conversation: "that year" and "it"', async () => {
    const r = await client.chat.completions.create({
      model: 'fin-chat',
      messages: [
        { role: 'user', content: 'What were ACME total assets in FY2022?' },
        { role: 'assistant', content: 'Total assets for FY2022: $12,600 million.' },
        { role: 'user', content: 'And its net income that year?' },
      ],
    });
    expect(r.choices[0]!.message.content!.split('\n')[0]).toContain('$1,092 million');
  });

  it('cuts at max_tokens with finish_reason length', async () => {
    const r = await client.chat.completions.create({ model: 'fin-chat', max_tokens: 4, messages: [{ role: 'user', content: 'What was ACME net income in FY2023?' }] });
    expect(r.choices[0]!.finish_reason).toBe('length');
    expect(r.usage!.completion_tokens).toBe(4);
  });

  it('says when the documents do not hold the answer', async () => {
    const r = await client.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'What was the revenue of Initrode Systems in 2023?' }] });
    expect(r.choices[0]!.message.content).toMatch(/^Not in your documents/);
    expect((r.choices[0]!.message as Annotated).annotations).toBeUndefined();
  });
});

describe('POST /v1/chat/completions (streaming)', () => {
  it('streams chat.completion.chunk objects, annotations first, usage in the last chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'fin-chat',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'What was ACME operating margin in fiscal 2023?' }],
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.object).toBe('chat.completion.chunk');
      expect(c.service_tier).toBe('default');
    }
    const withChoice = chunks.filter((c) => c.choices.length > 0);
    expect(withChoice.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(withChoice[withChoice.length - 1]!.choices[0]!.finish_reason).toBe('stop');
    for (const c of withChoice) {
      expect(c.choices[0]!.logprobs).toBeNull();
      expect(c.choices[0]!.delta.refusal).toBeNull();
    }
    const first = withChoice[0]!.choices[0]!.delta as Annotated & { role?: string };
    expect(first.role).toBe('assistant');
    expect(first.annotations!.map((a) => a.page_number)).toEqual([ACME.incomePage]);
    const text = withChoice.map((c) => c.choices[0]!.delta.content ?? '').join('');
    expect(text.split('\n')[0]).toContain('16.0%');
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.completion_tokens).toBeGreaterThan(5);
    expect(withChoice.every((c) => c.usage === null)).toBe(true);
  });

  it('sends SSE headers and ends with data: [DONE]', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fin-chat', stream: true, messages: [{ role: 'user', content: 'ACME inventories FY2023?' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const body = await res.text();
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    const events = body.split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: ') || e.startsWith(':'))).toBe(true);
    const text = events
      .filter((e) => e.startsWith('data: {'))
      .map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { content?: string } }[] })
      .map((c) => c.choices[0]?.delta.content ?? '')
      .join('');
    expect(text.split('\n')[0]).toContain('$2,000 million');
  });
});

describe('errors in OpenAI shape', () => {
  it('401 invalid_api_key for a wrong key', async () => {
    const bad = new OpenAI({ apiKey: 'wrong-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });

  it('400 model_not_found, 400 for temperature out of range', async () => {
    await expect(client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400, code: 'model_not_found', type: 'invalid_request_error' });
    await expect(client.chat.completions.create({ model: 'fin-chat', temperature: 2.5, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 400, param: 'temperature' });
  });

  it('400 for a body over 8 MB', async () => {
    // the server may answer (and close) before the whole body is sent: read the answer, ignore EPIPE
    const body = JSON.stringify({ model: 'fin-chat', messages: [{ role: 'user', content: 'x'.repeat(8.5 * 1024 * 1024) }] });
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let t = '';
        res.on('data', (d: Buffer) => (t += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, text: t }));
        res.on('error', reject);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
      });
      req.end(body);
    });
    expect(status).toBe(400);
    expect((JSON.parse(text) as { error: { message: string } }).error.message).toMatch(/too large/);
  });
});

describe('rate limit', () => {
  it('429 after the per-key limit within a minute', async () => {
    const limited = await startServer({ env: { DOCAI_CHAT_RATE_LIMIT: '2' } });
    try {
      const c = new OpenAI({ apiKey: limited.key, baseURL: `${limited.url}/v1`, maxRetries: 0 });
      const ask = () => c.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'hello' }] });
      await ask();
      await ask();
      await expect(ask()).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    } finally {
      await limited.stop();
      removeHome(limited.home);
    }
  });
});

describe('balance, per-key library, disconnect', () => {
  it('a key sees only its own documents, is debited per 1,000 tokens, then gets 429 insufficient_quota', async () => {
    const created = await call(server, 'POST', '/v1/keys', { key: server.ownerKey, body: { name: 'analyst', balance: 1 } });
    expect(created.status).toBe(200);
    const c = new OpenAI({ apiKey: created.json.data.key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const r = await c.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'What was ACME revenue in FY2023?' }] });
    expect(r.choices[0]!.message.content).toMatch(/^Not in your documents/);
    const keys = await call(server, 'GET', '/v1/keys', { key: server.ownerKey });
    expect(keys.json.data.keys.find((k: { name: string }) => k.name === 'analyst').balance).toBe(0);
    await expect(c.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
  });

  it('a client that goes away mid-stream does not disturb the server', async () => {
    const ac = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      signal: ac.signal,
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fin-chat', stream: true, messages: [{ role: 'user', content: 'What was ACME quick ratio in FY2023?' }] }),
    });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith('data: {')).toBe(true);
    ac.abort();
    const after = await client.chat.completions.create({ model: 'fin-chat', messages: [{ role: 'user', content: 'What was ACME quick ratio in FY2023?' }] });
    // (4,700 − 2,000) / 2,350
    expect(after.choices[0]!.message.content!.split('\n')[0]).toContain('1.15');
  });
});
