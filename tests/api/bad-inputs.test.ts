import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_INPUTS, GOOD_BODY, GOOD_TITLE } from '../fixtures/make-bad-inputs.js';
import { call, fixture, form, removeHome, startServer, waitForTask, type RunningServer } from './helpers/server-process.js';

/**
 * Hostile and broken requests over real HTTP against the built server: each ends in the spec's error
 * or in a per-file FAILED entry with a message, the server stays up, a good task beside them finishes
 * with the right content, and the server's memory comes back near where it started.
 */
let server: RunningServer;
let baselineRssMb = 0;
const WRONG_KEY = 'sk-wrong-secret-9f8e7d6c5b4a3210';

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const good = () => fixture(BAD_INPUTS.goodPdf);
const pdfPart = () => ({ name: 'files', filename: 'doc.pdf', data: good() });

/** A multipart body written byte by byte, so file names can carry NUL, `../` and non-UTF-8 bytes. */
function rawMultipart(parts: { name: string; filename?: Buffer | string; data: Buffer | string }[]): { body: Buffer; type: string } {
  const boundary = '----docaiHardening7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`, 'latin1'));
    if (p.filename !== undefined) chunks.push(Buffer.from('; filename="'), Buffer.isBuffer(p.filename) ? p.filename : Buffer.from(p.filename, 'utf8'), Buffer.from('"\r\nContent-Type: application/octet-stream'));
    chunks.push(Buffer.from('\r\n\r\n'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * POST over node:http: the server may answer (and close) before a too-large body is all sent, so the
 * answer is read and EPIPE / ECONNRESET on the request side are ignored.
 */
function postHttp(path: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; json: any; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let json: any = null;
        try {
          json = JSON.parse(text);
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, json, text });
      });
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
      // the server's answer can be lost with the reset (TCP drops unread data): status 0 = closed on us
      else setTimeout(() => resolve({ status: 0, json: null, text: `connection closed by the server (${err.code})` }), 1500);
    });
    req.end(body);
  });
}

const postRaw = (path: string, raw: { body: Buffer; type: string }, key = server.key) => postHttp(path, raw.body, { 'api-key': key, 'content-type': raw.type });
const postJson = (path: string, body: string, headers: Record<string, string> = {}) => postHttp(path, Buffer.from(body), { 'content-type': 'application/json', ...headers });

/** GET with the path sent exactly as written (fetch would normalise `..`). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method: 'GET', headers: { host: `127.0.0.1:${server.port}` } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString('latin1')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function expectAlive() {
  const h = await call(server, 'GET', '/v1/health', { key: null });
  expect(h.status).toBe(200);
  expect(h.json.status).toBe('ok');
}

function expectGoodParse(result: any) {
  const blocks = result.blocks as { text: string; type: string }[];
  const title = blocks.find((b) => b.text.includes(GOOD_TITLE));
  expect(title?.type).toBe('Title');
  expect(blocks.some((b) => b.text.includes(GOOD_BODY))).toBe(true);
}

beforeAll(async () => {
  server = await startServer();
  // warm the server (first parse loads the worker's readers), then take the memory baseline
  const sub = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'warm.pdf', data: good() }]]) });
  const done = await waitForTask(server, `/v1/docai/parse/${sub.json.data.task_id}`);
  expect(done.json.data.status).toBe('SUCCESS');
  await sleep(500);
  baselineRssMb = rssMb(server.proc.pid!);
});

afterAll(async () => {
  await server?.stop();
  if (server) removeHome(server.home);
});

describe('damaged and hostile files', () => {
  it('every bad file in a parse batch fails its own entry with a message; the good files beside them succeed', async () => {
    const bad: [string, string][] = [
      [BAD_INPUTS.truncatedPdf, 'truncated.pdf'],
      [BAD_INPUTS.bitFlippedPdf, 'bitflip.pdf'],
      [BAD_INPUTS.cyclicXrefPdf, 'cyclic.pdf'],
      [BAD_INPUTS.encryptedPdf, 'encrypted.pdf'],
      [BAD_INPUTS.bombDocx, 'bomb.docx'],
      [BAD_INPUTS.bombXlsx, 'bomb.xlsx'],
      [BAD_INPUTS.bombPptx, 'bomb-lying.pptx'],
      [BAD_INPUTS.hugePng, 'huge.png'],
      [BAD_INPUTS.hugeTiff, 'huge.tiff'],
      [BAD_INPUTS.emptyPdf, 'empty.pdf'],
      [BAD_INPUTS.junkPdf, 'junk.pdf'],
    ];
    // a separate good task submitted alongside, and good files inside the batch under wrong extensions
    const alongside = call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'alongside.pdf', data: good() }]]) });
    const batch = await call(server, 'POST', '/v1/docai/parse', {
      body: form([
        ['mode', 'lite'],
        ...bad.map(([f, name]): [string, { name: string; data: Buffer }] => ['files', { name, data: fixture(f) }]),
        ['files', { name: 'really-a-pdf.png', data: good() }],
        ['files', { name: 'really-a-pdf.docx', data: good() }],
      ]),
    });
    expect(batch.status).toBe(200);
    expect(batch.json.data.status).toBe('PROCESSING');
    const side = await alongside;
    expect(side.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${batch.json.data.task_id}`, undefined, 45_000);
    expect(done.json.data.status).toBe('SUCCESS');
    const results = done.json.data.results as any[];
    expect(results).toHaveLength(bad.length + 2);
    const outcomes: Record<string, string> = {};
    for (const [i, [, name]] of bad.entries()) {
      const r = results[i];
      outcomes[name] = `${r.status} ${r.err_code}: ${r.err_message}`;
      expect(r.file_name).toBe(name);
      expect(r.status, name).toBe('FAILED');
      expect(r.err_code, name).toBe('INVALID_DOCUMENT');
      expect(typeof r.err_message).toBe('string');
      expect(r.err_message.length, name).toBeGreaterThan(10);
      expect(r.err_message, name).not.toMatch(/^internal error|undefined|\[object Object\]/);
    }
    // the messages say what is wrong, not just "failed"
    expect(results[4].err_message).toMatch(/MB|bomb|inflat|compress/i);
    expect(results[6].err_message).toMatch(/MB|bomb|inflat|compress/i);
    expect(results[7].err_message).toMatch(/50000|pixel|large/i);
    expect(results[8].err_message).toMatch(/50000|pixel|large/i);
    expect(results[9].err_message).toMatch(/empty/i);
    expect(results[3].err_message).toMatch(/encrypt|password/i);
    console.log(`bad-input outcomes:\n${Object.entries(outcomes).map(([k, v]) => `  ${k}: ${v}`).join('\n')}`);
    // content decides the format, not the extension
    expectGoodParse(results[bad.length]);
    expectGoodParse(results[bad.length + 1]);
    const sideDone = await waitForTask(server, `/v1/docai/parse/${side.json.data.task_id}`);
    expect(sideDone.json.data.status).toBe('SUCCESS');
    expectGoodParse(sideDone.json.data.results[0]);
    await expectAlive();
  });

  it('extract and mask refuse a batch of only bad files with 422 INVALID_DOCUMENT, or fail each file in the task', async () => {
    for (const path of ['/v1/docai/extract', '/v1/docai/mask']) {
      const mode = path.endsWith('extract') ? 'docai-extract' : 'emr-mask';
      const r = await call(server, 'POST', path, {
        body: form([
          ['mode', mode],
          ['files', { name: 'bomb.docx', data: fixture(BAD_INPUTS.bombDocx) }],
          ['files', { name: 'empty.png', data: Buffer.alloc(0) }],
        ]),
      });
      // a docx is not an accepted type for extract/mask and the PNG is empty: nothing acceptable
      expect(r.status, path).toBe(422);
      expect(r.json).toMatchObject({ success: false, err_code: 'INVALID_DOCUMENT' });
      expect(r.json.err_message).toMatch(/empty|not accepted/);
      const task = await call(server, 'POST', path, { body: form([['mode', mode], ['files', { name: 'huge.tiff', data: fixture(BAD_INPUTS.hugeTiff) }]]) });
      expect(task.status).toBe(200);
      const done = await waitForTask(server, `${path}/${task.json.data.task_id}`, undefined, 30_000);
      expect(done.json.data.status).toBe('FAILED');
      expect(done.json.data.err_code).toBe('INVALID_DOCUMENT');
      expect(done.json.data.results[0]).toMatchObject({ status: 'FAILED', err_code: 'INVALID_DOCUMENT' });
    }
    await expectAlive();
  });
});

describe('large containers', () => {
  it('three 60 MB OOXML uploads at once are identified without loading them into the server process', async () => {
    // a stored (uncompressed) zip: [Content_Types].xml, word/document.xml and 60 MB of media
    const JSZip = (await import('jszip')).default;
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file('word/document.xml', '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body/></w:document>');
    zip.file('word/media/scan.bin', Buffer.alloc(60 * 1024 * 1024, 7), { compression: 'STORE' });
    const docx = await zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
    const before = rssMb(server.proc.pid!);
    const answers = await Promise.all(
      [1, 2, 3].map((i) => postRaw('/v1/docai/parse', rawMultipart([{ name: 'mode', data: 'lite' }, { name: 'files', filename: `big${i}.docx`, data: docx }]))),
    );
    const grown = rssMb(server.proc.pid!) - before;
    console.log(`3 x 60 MB docx uploads: server RSS +${grown.toFixed(0)} MB`);
    for (const a of answers) expect(a.status).toBe(200);
    // streaming to disk costs buffers, not the files: well under one file's size
    expect(grown).toBeLessThan(60);
  });
});

describe('documents too long to lay out', () => {
  it('a DOCX that lays out to 6,000 pages is refused like a PDF over the page limit, not parsed into a huge result', async () => {
    // 6,000 one-line pages (a page break before each paragraph): 60 KB zipped. Found with a 9 MB DOCX of 900,000
    // paragraphs that took 3 minutes and left the server process at 3 GB RSS holding its result.
    const JSZip = (await import('jszip')).default;
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    const paras = Array.from({ length: 6000 }, (_, i) => `<w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:t>Page ${i + 1}</w:t></w:r></w:p>`).join('');
    zip.file('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paras}</w:body></w:document>`);
    const docx = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const r = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'long.docx', data: docx }]]) });
    expect(r.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${r.json.data.task_id}`);
    expect(done.json.data.status).toBe('ERROR');
    expect(done.json.data.results[0]).toMatchObject({ file_name: 'long.docx', status: 'FAILED', err_code: 'INVALID_DOCUMENT' });
    expect(done.json.data.results[0].err_message).toMatch(/5,?000 pages/);
  });
});

describe('workbooks too large to lay out', () => {
  it('a workbook of 300,000 filled cells is refused with INVALID_DOCUMENT naming the cell limit', async () => {
    // 20,000 rows x 60 columns (4.4 MB) took 95 s and 1.5 GB in a worker and gave 2.3 million lines to hold in the server
    const JSZip = (await import('jszip')).default;
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file('xl/workbook.xml', '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>');
    zip.file('xl/_rels/workbook.xml.rels', '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>');
    const rows: string[] = [];
    for (let r = 1; r <= 20_000; r++) rows.push(`<row r="${r}">${Array.from({ length: 15 }, (_, c) => `<c t="n"><v>${r * 16 + c}</v></c>`).join('')}</row>`);
    zip.file('xl/worksheets/sheet1.xml', `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows.join('')}</sheetData></worksheet>`);
    const xlsx = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const r = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'big.xlsx', data: xlsx }]]) });
    expect(r.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${r.json.data.task_id}`, undefined, 40_000);
    expect(done.json.data.results[0]).toMatchObject({ file_name: 'big.xlsx', status: 'FAILED', err_code: 'INVALID_DOCUMENT' });
    expect(done.json.data.results[0].err_message).toMatch(/cells/);
  }, 60_000);
});

describe('documents too deep to parse', () => {
  it('HTML nested 60,000 elements deep is refused at once, not parsed in quadratic time', async () => {
    // 200,000 nested <div>s (2.4 MB) kept a worker busy for 82 s: the HTML parser's open-element stack grows by unshift
    const html = `<html><body>${'<div>'.repeat(60_000)}deep text${'</div>'.repeat(60_000)}</body></html>`;
    const t0 = Date.now();
    const r = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'deep.html', data: Buffer.from(html) }]]) });
    expect(r.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${r.json.data.task_id}`);
    const ms = Date.now() - t0;
    expect(done.json.data.results[0]).toMatchObject({ file_name: 'deep.html', status: 'FAILED', err_code: 'INVALID_DOCUMENT' });
    expect(done.json.data.results[0].err_message).toMatch(/nested|deep/i);
    expect(ms).toBeLessThan(3000);
  });
});

describe('reader faults in the worker', () => {
  it('a PDF that leaves pdf.js with an unhandled rejection does not kill its worker; its readable page is parsed', async () => {
    const before = (await call(server, 'GET', '/v1/health', { key: null })).json.worker_pids as number[];
    const r = await call(server, 'POST', '/v1/docai/parse', { body: form([['mode', 'lite'], ['files', { name: 'fuzz.pdf', data: fixture(BAD_INPUTS.fuzzUnhandledPdf) }]]) });
    expect(r.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${r.json.data.task_id}`);
    await sleep(1000); // the rejection surfaces after the reader returned: give a dying child time to be replaced
    const after = (await call(server, 'GET', '/v1/health', { key: null })).json.worker_pids as number[];
    // readDocument resolves with the one readable page; the rejection pdf.js leaves behind must not end the child
    expect(done.json.data.results[0].err_message ?? 'parsed').not.toMatch(/worker .*stopped/);
    expect(done.json.data.status).toBe('SUCCESS');
    expect(after).toEqual(before);
  });
});

describe('hostile multipart requests', () => {
  it('a 0-byte file part is a per-file failure; alone it is 422 with "empty"', async () => {
    const alone = await postRaw('/v1/docai/parse', rawMultipart([{ name: 'mode', data: 'lite' }, { name: 'files', filename: 'zero.pdf', data: Buffer.alloc(0) }]));
    expect(alone.status).toBe(422);
    expect(alone.json).toMatchObject({ success: false, err_code: 'INVALID_DOCUMENT' });
    expect(alone.json.err_message).toContain('empty');
    const mixed = await postRaw(
      '/v1/docai/parse',
      rawMultipart([
        { name: 'mode', data: 'lite' },
        { name: 'files', filename: 'zero.pdf', data: Buffer.alloc(0) },
        { name: 'files', filename: 'ok.pdf', data: good() },
      ]),
    );
    expect(mixed.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${mixed.json.data.task_id}`);
    expect(done.json.data.results[0]).toMatchObject({ file_name: 'zero.pdf', status: 'FAILED', err_code: 'INVALID_DOCUMENT' });
    expectGoodParse(done.json.data.results[1]);
  });

  it('file names with ../, NUL, 1,000 characters and non-UTF-8 bytes are cleaned, stored by hash and parsed', async () => {
    const long = `${'长'.repeat(600)}${'x'.repeat(396)}.pdf`;
    const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xff, 0xfe, 0x2e, 0x70, 0x64, 0x66]); // "你好" in GBK, two stray bytes, ".pdf"
    const names: (string | Buffer)[] = ['../../../../etc/passwd.pdf', '..\\..\\windows\\win.ini.pdf', 'a\u0000b\u0001c.pdf', long, gbk];
    const r = await postRaw('/v1/docai/parse', rawMultipart([{ name: 'mode', data: 'lite' }, ...names.map((n) => ({ name: 'files', filename: n, data: good() }))]));
    expect(r.status).toBe(200);
    const done = await waitForTask(server, `/v1/docai/parse/${r.json.data.task_id}`);
    expect(done.json.data.status).toBe('SUCCESS');
    const results = done.json.data.results as any[];
    expect(results.map((x) => x.file_name).slice(0, 3)).toEqual(['passwd.pdf', 'win.ini.pdf', 'abc.pdf']);
    expect(results[3].file_name.length).toBeLessThanOrEqual(200);
    expect(results[3].file_name.endsWith('.pdf')).toBe(true);
    expect(results[4].file_name).toMatch(/\.pdf$/);
    for (const x of results) {
      expect(x.file_name).not.toMatch(/[/\\\u0000-\u001f]/);
      expectGoodParse(x);
    }
  });

  it('broken multipart framing and unknown fields give a 4xx in the document error shape', async () => {
    const cut = rawMultipart([{ name: 'mode', data: 'lite' }, { name: 'files', filename: 'a.pdf', data: good() }]);
    const truncated = await postRaw('/v1/docai/parse', { body: cut.body.subarray(0, cut.body.length - 200), type: cut.type });
    expect(truncated.status).toBe(400);
    expect(truncated.json).toMatchObject({ success: false, err_code: 'INVALID_PARAMETER' });
    const noBoundary = await postRaw('/v1/docai/parse', { body: cut.body, type: 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.json.success).toBe(false);
    const manyFields = await postRaw('/v1/docai/parse', rawMultipart(Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, data: 'x' }))));
    expect(manyFields.status).toBe(400);
    expect(manyFields.json).toMatchObject({ success: false, err_code: 'INVALID_PARAMETER' });
    await expectAlive();
  });
});

describe('hostile form fields and JSON bodies', () => {
  it('json_schema over 1 MB, not JSON, and a 10 MB prompt are 400 INVALID_PARAMETER', async () => {
    const huge = JSON.stringify({ type: 'object', properties: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`field_${i}`, { type: 'string' }])) });
    expect(huge.length).toBeGreaterThan(1024 * 1024);
    const cases: [string, string][] = [
      ['json_schema', huge],
      ['json_schema', '{"type": "object", "properties": {"名称": {"type": "string"}'],
      ['prompt_cus', 'extract the totals '.repeat(560_000)],
    ];
    for (const [field, value] of cases) {
      const r = await postRaw('/v1/docai/extract', rawMultipart([{ name: 'mode', data: 'docai-extract' }, { name: field, data: value }, pdfPart()]));
      expect(r.status, field).toBe(400);
      expect(r.json.success).toBe(false);
      expect(r.json.err_code).toBe('INVALID_PARAMETER');
      expect(r.json.err_message).toMatch(/json_schema|1 MB/);
    }
    await expectAlive();
  });

  it('a json_schema nested 10,000 levels deep ends the task with a result or a message, in bounded time', async () => {
    let schema = '{"type":"string"}';
    for (let i = 0; i < 10_000; i++) schema = `{"type":"object","properties":{"k":${schema}}}`;
    expect(schema.length).toBeLessThan(1024 * 1024);
    const r = await postRaw('/v1/docai/extract', rawMultipart([{ name: 'mode', data: 'docai-extract' }, { name: 'json_schema', data: schema }, pdfPart()]));
    if (r.status === 200) {
      const done = await waitForTask(server, `/v1/docai/extract/${r.json.data.task_id}`, undefined, 30_000);
      expect(['SUCCESS', 'FAILED']).toContain(done.json.data.status);
      if (done.json.data.status === 'FAILED') expect(done.json.data.err_message).toMatch(/schema|nest|deep/i);
    } else {
      expect(r.status).toBe(400);
      expect(r.json.err_code).toBe('INVALID_PARAMETER');
    }
    await expectAlive();
  });

  it('parse v2 bodies: 10,000-level nesting, over 64 KB, not JSON, wrong types are 4xx, never 500', async () => {
    const key = { 'api-key': server.key };
    const nested = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const bodies = [
      `{"file":${nested},"model":"docai-parse-flash"}`,
      JSON.stringify({ file: { file_name: 'a.pdf', file_url: `http://127.0.0.1/${'a'.repeat(70_000)}` }, model: 'docai-parse-flash' }),
      '{"file": {"file_name": "a.pdf", "file_url": ',
      JSON.stringify({ file: { file_name: 42, file_url: ['x'] }, model: { $gt: '' } }),
      '{"file":{"file_name":"a.pdf","file_url":"http://127.0.0.1/a.pdf"},"model":"docai-parse-flash","__proto__":{"polluted":true}}',
      JSON.stringify({ file: { file_name: 'a.pdf', file_url: 'file:///etc/passwd' }, model: 'docai-parse-flash' }),
      JSON.stringify([1, 2, 3]),
      'null',
    ];
    const statuses: number[] = [];
    for (const b of bodies) {
      const r = await postJson('/v2/docai/parse/file-url', b, key);
      statuses.push(r.status);
      if (r.status === 200) {
        // only the file: URL may be accepted at submit; its download fails inside the task
        const done = await waitForTask(server, `/v2/docai/parse/${r.json.data.task_id}`);
        expect(done.json.data).toMatchObject({ status: 'ERROR', err_code: 'FILE_DOWNLOAD_FAILED' });
        continue;
      }
      expect(r.status, b.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(r.status, b.slice(0, 60)).toBeLessThan(500);
      expect(r.json.success).toBe(false);
      expect(typeof r.json.err_message).toBe('string');
    }
    expect(statuses[1]).toBe(413);
    await expectAlive();
  });

  it('chat: 10,000 messages, a 3 MB message, deep nesting and a foreign key never take the server down', async () => {
    const auth = { authorization: `Bearer ${server.key}` };
    const many = { model: 'fin-chat', messages: Array.from({ length: 10_000 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `question ${i} about revenue` })) };
    const t0 = Date.now();
    const r1 = await postJson('/v1/chat/completions', JSON.stringify(many), auth);
    const manyMs = Date.now() - t0;
    expect([200, 400]).toContain(r1.status);
    if (r1.status === 200) expect(r1.json.object).toBe('chat.completion');
    else expect(r1.json.error.type).toBe('invalid_request_error');
    expect(manyMs).toBeLessThan(15_000);
    // the health route must answer while a big message is being handled
    // 3 MB: a 7 MB message works too (about 8 s) but lifts the heap's high-water mark by ~250 MB for a while
    const bigBody = JSON.stringify({ model: 'fin-chat', messages: [{ role: 'user', content: 'revenue growth '.repeat((3 * 1024 * 1024) / 15) }] });
    const t1 = Date.now();
    const r2 = await postJson('/v1/chat/completions', bigBody, auth);
    const bigMs = Date.now() - t1;
    expect([200, 400]).toContain(r2.status);
    expect(bigMs).toBeLessThan(15_000);
    const deep = `{"model":"fin-chat","messages":[{"role":"user","content":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`;
    const r3 = await postJson('/v1/chat/completions', deep, auth);
    expect(r3.status).toBe(400);
    expect(r3.json.error.type).toBe('invalid_request_error');
    const r4 = await postJson('/v1/chat/completions', JSON.stringify({ model: 'fin-chat', messages: [{ role: 'user', content: 'hi' }] }), { authorization: `Bearer ${WRONG_KEY}` });
    expect(r4.status).toBe(401);
    console.log(`chat: 10,000 messages -> ${r1.status} in ${manyMs} ms; 3 MB message -> ${r2.status} in ${bigMs} ms`);
    await expectAlive();
  });
});

describe('security boundaries', () => {
  it('no route serves a path outside the blob store', async () => {
    const paths = [
      '/files/..%2f..%2fetc/passwd',
      '/files/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/files/docs/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/files/masked/..%2f..%2f/..%2f..%2fowner.key',
      '/files/masked/x/..%2f..%2f..%2fowner.key?exp=9999999999&sig=abc',
      '/..%2f..%2f..%2fetc/passwd',
      '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/../../../../etc/passwd',
      '/assets/..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/index.html/..%2f..%2f..%2fowner.key',
      '/%2e%2e%5c%2e%2e%5cowner.key',
      '/files/docs/%00',
    ];
    const ownerKey = server.ownerKey;
    for (const p of paths) {
      const r = await rawGet(p);
      expect([400, 403, 404], p).toContain(r.status);
      expect(r.body, p).not.toContain('root:');
      expect(r.body, p).not.toContain(ownerKey);
    }
  });

  it('a signed link is bound to its file and its expiry: signatures swapped between two files are 403', async () => {
    const add = await call(server, 'POST', '/v1/files', {
      body: form([
        ['files', { name: 'one.pdf', data: good() }],
        ['files', { name: 'two.pdf', data: Buffer.concat([good(), Buffer.from('\n% second copy\n')]) }],
      ]),
    });
    expect(add.status).toBe(200);
    const ids = add.json.data.documents.map((d: any) => d.doc_id) as string[];
    const urls: URL[] = [];
    for (const id of ids) {
      for (let i = 0; i < 300; i++) {
        const d = (await call(server, 'GET', `/v1/files/${id}`)).json.data;
        if (d.status === 'SUCCESS') {
          urls.push(new URL(d.url));
          break;
        }
        expect(d.status).toBe('PROCESSING');
        await sleep(100);
      }
    }
    expect(urls).toHaveLength(2);
    const [a, b] = urls as [URL, URL];
    expect((await fetch(a)).status).toBe(200);
    const swapped = new URL(a);
    swapped.searchParams.set('sig', b.searchParams.get('sig')!);
    swapped.searchParams.set('exp', b.searchParams.get('exp')!);
    const r = await fetch(swapped);
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ success: false, err_code: 'API_UNAUTHORIZED' });
    const noSig = new URL(a);
    noSig.search = '';
    expect((await fetch(noSig)).status).toBe(403);
    const past = new URL(a);
    past.searchParams.set('exp', '1');
    expect((await fetch(past)).status).toBe(403);
  });

  it('CORS is closed to a foreign origin on simple requests too', async () => {
    for (const [method, path] of [['GET', '/v1/health'], ['GET', '/v1/models'], ['POST', '/v1/chat/completions']] as const) {
      const res = await fetch(server.url + path, {
        method,
        headers: { origin: 'http://evil.example', 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
        body: method === 'POST' ? JSON.stringify({ model: 'fin-chat', messages: [{ role: 'user', content: 'hi' }] }) : undefined,
      });
      await res.arrayBuffer();
      expect(res.headers.get('access-control-allow-origin'), path).toBe(null);
      expect(res.headers.get('access-control-allow-credentials'), path).toBe(null);
    }
  });

  it('request size limits hold on every route', async () => {
    const key = { 'api-key': server.key };
    const big = (n: number) => JSON.stringify({ pad: 'x'.repeat(n) });
    const jsonLimits: [string, string, number, Record<string, string>][] = [
      ['/v1/chat/completions', big(9 * 1024 * 1024), 400, { authorization: `Bearer ${server.key}` }],
      ['/v2/docai/parse/file-url', big(100 * 1024), 413, key],
      ['/v1/keys', big(32 * 1024), 413, { 'api-key': server.ownerKey }],
    ];
    for (const [path, body, status, headers] of jsonLimits) {
      const r = await postJson(path, body, headers);
      // the answer, or a connection closed before the body was read (its answer lost with the reset)
      expect([status, 0], path).toContain(r.status);
    }
    for (const path of ['/v1/docai/parse', '/v1/docai/extract', '/v1/docai/mask', '/v1/files']) {
      const r = await postRaw(path, rawMultipart([{ name: 'mode', data: 'x'.repeat(1024 * 1024 + 10) }, pdfPart()]));
      expect(r.status, path).toBe(400);
      expect(r.json.err_code, path).toBe('INVALID_PARAMETER');
    }
    // JSON bodies sent to GET/DELETE routes are bounded by the global 8 MB limit
    const del = await new Promise<number>((resolve, reject) => {
      const body = Buffer.from(big(9 * 1024 * 1024));
      const req = request({ host: '127.0.0.1', port: server.port, path: '/v1/docai/parse/b_parse_none', method: 'DELETE', headers: { ...key, 'content-type': 'application/json', 'content-length': String(body.length) } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
        else setTimeout(() => resolve(0), 1500);
      });
      req.end(body);
    });
    expect([413, 0]).toContain(del);
    // headers beyond Node's limit: 431, the server stays up
    const hdr = await fetch(`${server.url}/v1/health`, { headers: { 'x-pad': 'y'.repeat(64 * 1024) } }).catch(() => null);
    if (hdr) expect(hdr.status).toBe(431);
    // a task id of 100 KB is a 4xx, not a crash
    const longId = await rawGet(`/v1/docai/parse/b_parse_${'Z'.repeat(100_000)}`);
    expect(longId.status).toBeGreaterThanOrEqual(400);
    expect(longId.status).toBeLessThan(500);
    await expectAlive();
  });

  it('keys never appear in the server output after all of the above', () => {
    const lines = server.output().split('\n');
    expect(lines.filter((l) => l.includes(server.key))).toEqual([`${server.url}/#key=${server.key}`]);
    expect(server.output()).not.toContain(server.ownerKey);
    expect(server.output()).not.toContain(WRONG_KEY);
  });
});

describe('memory', () => {
  it('server RSS after the run and a short idle is within 200 MB of the warm baseline', async () => {
    await sleep(3000);
    const after = rssMb(server.proc.pid!);
    console.log(`server RSS: baseline ${baselineRssMb.toFixed(0)} MB, after the bad-input run ${after.toFixed(0)} MB`);
    expect(after - baselineRssMb).toBeLessThan(200);
    await expectAlive();
  });
});
