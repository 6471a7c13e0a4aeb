import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../../engine/api/context.js';
import { answerChat } from '../../../engine/chat/answer-chat.js';
import { Library } from '../../../engine/store/library.js';
import { globexPages } from './statement-pages.js';

/** A small OpenAI-compatible upstream (as Ollama or LM Studio would be), started by the test. */
const owner: KeyRecord = { id: 'owner', name: 'owner', balance: null, owner: true };
let upstream: Server;
let base: string;
const received: { messages: { role: string; content: string }[]; model: string; stream: boolean; temperature: number }[] = [];
let library: Library;

beforeAll(async () => {
  library = new Library(new Database(':memory:'));
  library.indexDocument({ docId: 'globex', ownerKeyId: 'owner', fileName: 'globex-10k-2023.pdf', pageCount: 4, blobHash: 'h', pages: globexPages() });
  upstream = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      received.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const piece of ['Globex grew ', 'net sales 25.0% ', 'in FY2023 [1].']) {
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece } }] })}\n\n`);
      }
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => upstream.close(() => r())));

const sign = (path: string, q?: Record<string, string>) => `http://docai.test${path}?${new URLSearchParams({ ...q, sig: 's' })}`;

async function collect(pieces: AsyncIterable<string>): Promise<string> {
  let t = '';
  for await (const p of pieces) t += p;
  return t;
}

describe('language model path', () => {
  it('sends the evidence and the computed figures, streams the model text and keeps the citations', async () => {
    const ans = await answerChat({
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What was Globex revenue growth in FY2023?' }],
      temperature: 0.2,
      signal: new AbortController().signal,
      key: owner,
      library,
      sign,
      settings: { llmBaseUrl: base, llmModel: 'qwen2.5:7b', llmApiKey: null },
    });
    expect(ans.answerer).toBe('llm');
    expect(await collect(ans.pieces)).toBe('Globex grew net sales 25.0% in FY2023 [1].');
    expect(ans.upstreamUsage()).toEqual({ prompt_tokens: 321, completion_tokens: 12 });
    expect(ans.annotations).toEqual([{ file_name: 'globex-10k-2023.pdf', url: 'http://docai.test/files/docs/globex?page=2&sig=s#page=2', page_number: 2 }]);
    const req = received[received.length - 1]!;
    expect(req.model).toBe('qwen2.5:7b');
    expect(req.stream).toBe(true);
    expect(req.temperature).toBe(0.2);
    const system = req.messages[0]!.content;
    expect(system).toContain('Answer only from the evidence');
    expect(system).toContain('[1] globex-10k-2023.pdf, page 2: Net sales $ 8,000 $ 6,400');
    expect(system).toContain('growth = 25.0%');
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'system', 'user']);
  });

  it('falls back to the grounded answer when the upstream cannot be reached', async () => {
    const ans = await answerChat({
      messages: [{ role: 'user', content: 'What was Globex revenue growth in FY2023?' }],
      temperature: 1,
      signal: new AbortController().signal,
      key: owner,
      library,
      sign,
      settings: { llmBaseUrl: 'http://127.0.0.1:9/v1', llmModel: null, llmApiKey: null },
    });
    const text = await collect(ans.pieces);
    expect(text.split('\n')[0]).toContain('25.0%');
    expect(ans.upstreamUsage()).toBeNull();
  });

  it('does not call the model when the documents do not hold the answer', async () => {
    const before = received.length;
    const ans = await answerChat({
      messages: [{ role: 'user', content: 'What was the revenue of Umbrella Corporation in 2023?' }],
      temperature: 1,
      signal: new AbortController().signal,
      key: owner,
      library,
      sign,
      settings: { llmBaseUrl: base, llmModel: null, llmApiKey: null },
    });
    expect(await collect(ans.pieces)).toMatch(/^Not in your documents/);
    expect(received.length).toBe(before);
    expect(ans.annotations).toEqual([]);
  });
});
