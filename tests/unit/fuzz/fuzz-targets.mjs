// Property-based fuzz targets (fast-check), shared by the CI tests (tests/unit/fuzz, tests/api/fuzz-*)
// and by bench/fuzz-run.mjs, which runs them far longer. Plain JavaScript so the bench can import it.
// Each target is a function returning a fast-check async property; what is under test is passed in
// (readDocument from the source tree or from dist/, the base URL of a running server).
import fc from 'fast-check';
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// ---------------------------------------------------------------- PDF reader

const PDF_TOKENS = ['obj', 'endobj', 'stream', 'endstream', 'xref', 'trailer', 'startxref', '/Length', '/Root', '/Pages', '/Kids', '/Count', '/Type', '/Font', 'R', '<<', '>>', '[', ']', '(', ')', '0', '1', '-1', '99999999', '/Filter', '/FlateDecode'];

/** One mutation of a PDF's bytes: bit flips, a cut, an insertion, a token swapped, a slice copied elsewhere. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip'), at: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })), { minLength: 1, maxLength: 24 }) }),
  fc.record({ kind: fc.constant('cut'), at: fc.nat() }),
  fc.record({ kind: fc.constant('insert'), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 96 }) }),
  fc.record({ kind: fc.constant('token'), from: fc.constantFrom(...PDF_TOKENS), to: fc.oneof(fc.constantFrom(...PDF_TOKENS), fc.integer().map(String)), nth: fc.nat(40) }),
  fc.record({ kind: fc.constant('splice'), a: fc.nat(), len: fc.integer({ min: 1, max: 400 }), to: fc.nat() }),
);

export function applyMutation(buf, m) {
  const n = buf.length;
  switch (m.kind) {
    case 'flip': {
      const b = Buffer.from(buf);
      for (const [p, bit] of m.at) if (n > 0) b[p % n] ^= 1 << bit;
      return b;
    }
    case 'cut':
      return buf.subarray(0, n === 0 ? 0 : m.at % n);
    case 'insert': {
      const p = n === 0 ? 0 : m.at % n;
      return Buffer.concat([buf.subarray(0, p), Buffer.from(m.bytes), buf.subarray(p)]);
    }
    case 'token': {
      const text = buf.toString('latin1');
      let idx = -1;
      for (let i = 0; i <= m.nth; i++) {
        const next = text.indexOf(m.from, idx + 1);
        if (next < 0) break;
        idx = next;
      }
      if (idx < 0) return buf;
      return Buffer.from(text.slice(0, idx) + m.to + text.slice(idx + m.from.length), 'latin1');
    }
    case 'splice': {
      if (n === 0) return buf;
      const a = m.a % n;
      const slice = buf.subarray(a, Math.min(n, a + m.len));
      const to = m.to % n;
      return Buffer.concat([buf.subarray(0, to), slice, buf.subarray(to)]);
    }
    default:
      return buf;
  }
}

/** Mutated copies of one of `bases` (a Buffer or an array of them). */
export const pdfMutations = (bases) => {
  const list = Array.isArray(bases) ? bases : [bases];
  return fc.tuple(fc.constantFrom(...list), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([base, ms]) => ms.reduce(applyMutation, base));
};

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not settle within ${ms} ms (hang)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * readDocument on a mutated PDF resolves with pages or throws DocError INVALID_DOCUMENT with a message;
 * anything else (another error, a hang past `timeoutMs`) is a failure. A native crash ends the process.
 * A promise pdf.js leaves rejected with no handler after the read settled (which would end a Node process
 * with default settings; the worker child tolerates it) is counted in `strays`, with the first input kept.
 */
export function readDocumentProperty(readDocument, basePdfs, timeoutMs = 10_000) {
  const dir = mkdtempSync(join(tmpdir(), 'docai-fuzz-pdf-'));
  let n = 0;
  const strays = { count: 0, first: null, file: null };
  let pending = [];
  const onUnhandled = (reason) => pending.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const property = fc.asyncProperty(pdfMutations(basePdfs), async (bytes) => {
    const path = join(dir, `m${n++}.pdf`);
    writeFileSync(path, bytes);
    pending = [];
    try {
      let doc;
      try {
        doc = await withTimeout(readDocument(path, { fileName: 'mutated.pdf', format: 'pdf', ocr: 'never' }), timeoutMs, 'readDocument');
      } catch (err) {
        if (!(err && err.name === 'DocError' && err.code === 'INVALID_DOCUMENT' && typeof err.message === 'string' && err.message.length > 0)) throw err;
      }
      if (doc !== undefined) {
        if (!Array.isArray(doc.pages)) throw new Error('readDocument resolved without pages');
        for (const p of doc.pages) if (!(p.width > 0 && p.height > 0) || !Array.isArray(p.lines)) throw new Error(`page ${p.pageNumber} has no size or lines`);
      }
      // let rejections left behind by the reader surface
      await new Promise((r) => setTimeout(r, 5));
      if (pending.length > 0) {
        strays.count++;
        if (!strays.first) {
          strays.first = String(pending[0]?.name ?? '') + ': ' + String(pending[0]?.message ?? pending[0]).slice(0, 200);
          strays.file = join(tmpdir(), `docai-fuzz-stray-rejection-${strays.count}-${bytes.length}.pdf`);
          writeFileSync(strays.file, bytes);
        }
      }
      return true;
    } finally {
      rmSync(path, { force: true });
    }
  });
  return {
    property,
    strays,
    cleanup: () => {
      process.off('unhandledRejection', onUnhandled);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- HTTP

/** POST a raw body; a server that answers before reading all of it is fine (EPIPE ignored). */
export function postBytes(baseUrl, path, body, headers) {
  const u = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${path} within 30 s`)));
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), type: String(res.headers['content-type'] ?? '') }));
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    req.end(body);
  });
}

/** Every answer of a document route: a JSON envelope, 2xx or 4xx, never 5xx. */
function checkDocAnswer(r, what) {
  if (r.status >= 500 || r.status < 200) throw new Error(`${what}: HTTP ${r.status}: ${r.text.slice(0, 300)}`);
  let j;
  try {
    j = JSON.parse(r.text);
  } catch {
    throw new Error(`${what}: HTTP ${r.status} with a body that is not JSON: ${r.text.slice(0, 200)}`);
  }
  if (r.status === 200) {
    const ok = what === 'POST /v1/files' ? Array.isArray(j.data?.documents) && j.data.documents.length > 0 : typeof j.data?.task_id === 'string';
    if (j.success !== true || !ok) throw new Error(`${what}: 200 without a task id or documents: ${r.text.slice(0, 200)}`);
  } else if (j.success !== false || typeof j.err_code !== 'string' || typeof j.err_message !== 'string' || j.err_message.length === 0) {
    throw new Error(`${what}: HTTP ${r.status} without the error envelope: ${r.text.slice(0, 200)}`);
  }
  return j;
}

const MULTIPART_ROUTES = [
  { path: '/v1/docai/parse', prefix: 'b_parse_', modes: ['lite', 'pro', 'premium', 'docai-parse-flash', 'docai-parse-premium'] },
  { path: '/v1/docai/extract', prefix: 'b_extract_', modes: ['docai-extract', 'docai-extract-flash', 'emr-extract', 'bl-extract', 'occ-extract'] },
  { path: '/v1/docai/mask', prefix: 'r_mask_', modes: ['emr-mask'] },
  { path: '/v1/files', prefix: null, modes: ['lite'] },
];

const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const fieldName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('files', 'files[]', 'file', 'mode', 'json_schema', 'prompt_cus') }, { weight: 1, arbitrary: anyText });

/** Multipart parts: fields and files with arbitrary names, values and bytes (including hostile file names). */
const multipartParts = (goodPdf) =>
  fc.array(
    fc.oneof(
      fc.record({ name: fieldName, filename: fc.constant(undefined), data: fc.oneof(anyText.map((s) => Buffer.from(s)), fc.constantFrom('{}', '{"type":"object","properties":{"名称":{"type":"string"}}}', '[]', 'null', '{"properties":[1]}').map((s) => Buffer.from(s))) }),
      fc.record({
        name: fieldName,
        filename: fc.oneof(anyText, fc.constantFrom('a.pdf', '../../x.pdf', 'x\u0000.png', 'a'.repeat(900) + '.pdf', '.pdf', '')),
        data: fc.oneof(
          fc.constant(goodPdf),
          fc.constant(Buffer.alloc(0)),
          fc.uint8Array({ maxLength: 2048 }).map((u) => Buffer.from(u)),
          fc.nat().map((n) => goodPdf.subarray(0, n % goodPdf.length)),
        ),
      }),
    ),
    { maxLength: 6 },
  );

export function multipartBody(parts, boundary, mode) {
  const chunks = [];
  const all = mode === undefined ? parts : [{ name: 'mode', filename: undefined, data: Buffer.from(mode) }, ...parts];
  for (const p of all) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="`), Buffer.from(p.name), Buffer.from('"'));
    if (p.filename !== undefined) chunks.push(Buffer.from('; filename="'), Buffer.from(p.filename), Buffer.from('"\r\nContent-Type: application/octet-stream'));
    chunks.push(Buffer.from('\r\n\r\n'), p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Random multipart submissions to every upload route: always a JSON envelope, never a 5xx. */
export function multipartProperty(server, goodPdf) {
  return fc.asyncProperty(
    fc.constantFrom(...MULTIPART_ROUTES),
    fc.option(fc.oneof(fc.nat(20), anyText), { nil: undefined }),
    multipartParts(goodPdf),
    fc.boolean(),
    // sometimes the body is cut short (a client that goes away, a proxy that truncates)
    fc.option(fc.nat(), { freq: 6, nil: undefined }),
    async (route, modePick, parts, withKey, cutAt) => {
      const mode = typeof modePick === 'number' ? route.modes[modePick % route.modes.length] : modePick;
      const boundary = 'fuzzBoundary0123456789';
      const whole = multipartBody(parts, boundary, mode);
      const body = cutAt === undefined ? whole : whole.subarray(0, cutAt % whole.length);
      const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      if (withKey) headers['api-key'] = server.key;
      const r = await postBytes(server.url, route.path, body, headers);
      const j = checkDocAnswer(r, `POST ${route.path}`);
      if (!withKey && r.status !== 401) throw new Error(`POST ${route.path} without a key answered ${r.status}`);
      if (r.status === 200 && route.prefix && !j.data.task_id.startsWith(route.prefix)) throw new Error(`task id ${j.data.task_id} on ${route.path}`);
      return true;
    },
  );
}

/** Random JSON (structured near the real shape, or anything) to parse v2: a 200 task or a 4xx envelope. */
export function parseV2Property(server) {
  const urlish = fc.oneof(fc.webUrl(), anyText, fc.constantFrom('file:///etc/passwd', 'http://127.0.0.1:1/x.pdf', 'gopher://x', 'http://[::1]/a', 'http://169.254.169.254/latest'));
  const body = fc.oneof(
    fc.record({ file: fc.oneof(fc.record({ file_name: fc.oneof(anyText, fc.jsonValue()), file_url: fc.oneof(urlish, fc.jsonValue()) }, { requiredKeys: [] }), fc.jsonValue()), model: fc.oneof(fc.constantFrom('docai-parse-flash', 'docai-parse-premium', 'lite'), fc.jsonValue()) }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 200 }),
  );
  return fc.asyncProperty(body, async (text) => {
    const r = await postBytes(server.url, '/v2/docai/parse/file-url', Buffer.from(text), { 'content-type': 'application/json', 'api-key': server.key });
    const j = checkDocAnswer(r, 'POST /v2/docai/parse/file-url');
    if (r.status === 200 && (!/^parse_[0-9a-f-]{36}$/.test(j.data.task_id) || 'status' in j.data)) throw new Error(`v2 submit answered ${r.text.slice(0, 200)}`);
    return true;
  });
}

/** Random chat bodies: 200 chat.completion (or an SSE stream ending in [DONE]), or a 4xx in OpenAI's error shape. */
export function chatProperty(server) {
  const message = fc.oneof(
    fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: fc.oneof(anyText, fc.constantFrom('What was revenue growth in 2023?', '营业收入是多少?')) }),
    fc.record({ role: fc.oneof(anyText, fc.jsonValue()), content: fc.jsonValue() }, { requiredKeys: [] }),
  );
  const body = fc.oneof(
    { weight: 4, arbitrary: fc.record({ model: fc.oneof(fc.constant('fin-chat'), fc.jsonValue()), messages: fc.oneof(fc.array(message, { maxLength: 6 }), fc.jsonValue()), stream: fc.oneof(fc.boolean(), fc.jsonValue()), temperature: fc.oneof(fc.double(), fc.jsonValue()), max_tokens: fc.oneof(fc.integer(), fc.jsonValue()), stream_options: fc.jsonValue() }, { requiredKeys: ['model', 'messages'] }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
  return fc.asyncProperty(body, async (text) => {
    const r = await postBytes(server.url, '/v1/chat/completions', Buffer.from(text), { 'content-type': 'application/json', authorization: `Bearer ${server.key}` });
    if (r.status >= 500 || r.status < 200) throw new Error(`chat: HTTP ${r.status}: ${r.text.slice(0, 300)}`);
    if (r.status === 200 && r.type.startsWith('text/event-stream')) {
      if (!r.text.trimEnd().endsWith('data: [DONE]')) throw new Error(`chat stream without [DONE]: ${r.text.slice(-200)}`);
      return true;
    }
    let j;
    try {
      j = JSON.parse(r.text);
    } catch {
      throw new Error(`chat: HTTP ${r.status} with a body that is not JSON: ${r.text.slice(0, 200)}`);
    }
    if (r.status === 200 && j.object !== 'chat.completion') throw new Error(`chat 200 without chat.completion: ${r.text.slice(0, 200)}`);
    if (r.status !== 200 && (typeof j.error?.message !== 'string' || typeof j.error?.type !== 'string')) throw new Error(`chat ${r.status} without OpenAI's error shape: ${r.text.slice(0, 200)}`);
    return true;
  });
}

/** A failing input in words; a failing file's bytes are written to the temp folder so it can be replayed. */
function describeCounterexample(name, seed, values) {
  if (Array.isArray(values) && values.length === 1 && Buffer.isBuffer(values[0])) {
    const file = join(tmpdir(), `docai-fuzz-${name.replace(/[^a-z0-9]+/gi, '-')}-${seed}.bin`);
    writeFileSync(file, values[0]);
    return `${values[0].length} bytes written to ${file}`;
  }
  return JSON.stringify(values, (k, v) => (v && v.type === 'Buffer' && Array.isArray(v.data) ? `<${v.data.length} bytes>` : v))?.slice(0, 600) ?? String(values);
}

/** Run one property and summarise (never throws): the bench prints these, the tests assert failed === false. */
export async function runTarget(name, property, params) {
  const t0 = performance.now();
  const details = await fc.check(property, params);
  return {
    name,
    runs: details.numRuns,
    seconds: (performance.now() - t0) / 1000,
    failed: details.failed,
    interrupted: details.interrupted,
    seed: details.seed,
    counterexample: details.failed ? describeCounterexample(name, details.seed, details.counterexample) : null,
    error: details.failed ? String(details.errorInstance?.message ?? details.error ?? '').slice(0, 400) : null,
  };
}
