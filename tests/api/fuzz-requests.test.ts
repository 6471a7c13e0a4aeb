import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_INPUTS } from '../fixtures/make-bad-inputs.js';
import { chatProperty, multipartProperty, parseV2Property, runTarget } from '../unit/fuzz/fuzz-targets.mjs';
import { call, fixture, removeHome, startServer, type RunningServer } from './helpers/server-process.js';

/**
 * fast-check over the request parsers of the built server: random multipart submissions (field names,
 * values, file parts and names), random JSON for parse v2 and chat. Each answer is a JSON envelope or
 * OpenAI error with a 2xx/4xx status, never a 5xx, and the server is up afterwards.
 * bench/fuzz-run.mjs runs the same targets for 1,000 runs or 60 s each.
 */
let server: RunningServer;

beforeAll(async () => {
  // the chat limit is raised so the fuzzer measures parsing, not the rate limiter
  server = await startServer({ env: { DOCAI_CHAT_RATE_LIMIT: '100000', DOCAI_WORKERS: '1' } });
});
afterAll(async () => {
  await server?.stop();
  if (server) removeHome(server.home);
});

const params = { numRuns: 40, interruptAfterTimeLimit: 8_000 };

async function expectTarget(name: string, property: Parameters<typeof runTarget>[1]) {
  const r = await runTarget(name, property, params);
  expect(r.error, `${name} seed ${r.seed}: ${r.counterexample}`).toBe(null);
  expect(r.failed).toBe(false);
  expect(r.runs).toBeGreaterThanOrEqual(10);
  const h = await call(server, 'GET', '/v1/health', { key: null });
  expect(h.json.status).toBe('ok');
}

describe('request parsers under fast-check', () => {
  it('multipart submissions to parse, extract, mask and files', async () => {
    await expectTarget('multipart', multipartProperty(server, fixture(BAD_INPUTS.goodPdf)));
  });

  it('parse v2 JSON bodies', async () => {
    await expectTarget('parse-v2 JSON', parseV2Property(server));
  });

  it('chat JSON bodies', async () => {
    await expectTarget('chat JSON', chatProperty(server));
  });
});
