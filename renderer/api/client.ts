import { ApiError, errorFromResponse } from './api-error.js';
import type { Envelope, Operation, TaskData } from './types.js';

/** Where the API lives and which key speaks to it. */
export interface Connection {
  baseUrl: string;
  apiKey: string;
}

export interface SubmitOptions {
  operation: Operation;
  mode: string;
  files: File[];
  jsonSchema?: unknown;
  prompt?: string;
}

const RESOURCE: Record<Operation, string> = { parse: 'parse', extract: 'extract', mask: 'mask' };

function docHeaders(c: Connection): HeadersInit {
  return { 'api-key': c.apiKey };
}

/**
 * POST /v1/docai/{parse|extract|mask}: multipart upload, answers the task envelope. XMLHttpRequest rather than
 * fetch because only it reports upload progress.
 */
export function submitTask(c: Connection, opts: SubmitOptions, signal?: AbortSignal, onUpload?: (fraction: number) => void): Promise<TaskData> {
  const form = new FormData();
  for (const f of opts.files) form.append('files', f, f.name);
  form.append('mode', opts.mode);
  if (opts.jsonSchema !== undefined) form.append('json_schema', JSON.stringify(opts.jsonSchema));
  if (opts.prompt) form.append('prompt_cus', opts.prompt);
  return new Promise<TaskData>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${c.baseUrl}/v1/docai/${RESOURCE[opts.operation]}`);
    xhr.setRequestHeader('api-key', c.apiKey);
    xhr.upload.onprogress = (e) => e.lengthComputable && onUpload?.(e.loaded / e.total);
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      const res = new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': 'application/json' } });
      readEnvelope(res).then(resolve, reject);
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** GET /v1/docai/{resource}/{task_id}. */
export async function pollTask(c: Connection, operation: Operation, taskId: string, signal?: AbortSignal): Promise<TaskData> {
  const res = await fetch(`${c.baseUrl}/v1/docai/${RESOURCE[operation]}/${encodeURIComponent(taskId)}`, {
    headers: docHeaders(c),
    signal,
  });
  return readEnvelope(res);
}

async function readEnvelope(res: Response): Promise<TaskData> {
  if (!res.ok) throw await errorFromResponse(res);
  const env = (await res.json()) as Envelope;
  if (!env.success || !env.data) throw new ApiError(env.err_code ?? 'UNKNOWN', env.err_message ?? '', res.status);
  return env.data;
}

export function isFinished(status: string): boolean {
  return status === 'SUCCESS' || status === 'ERROR' || status === 'FAILED';
}

/**
 * Submit and poll until the task finishes. Polls quickly at first (small documents finish in well under a
 * second), then backs off to 1.5 s.
 */
export async function runTask(
  c: Connection,
  opts: SubmitOptions,
  onUpdate: (d: TaskData) => void,
  signal?: AbortSignal,
  onUpload?: (fraction: number) => void,
): Promise<TaskData> {
  let data = await submitTask(c, opts, signal, onUpload);
  onUpdate(data);
  let delay = 150;
  while (!isFinished(data.status)) {
    await sleep(delay, signal);
    delay = Math.min(1500, Math.round(delay * 1.5));
    data = await pollTask(c, opts.operation, data.task_id, signal);
    onUpdate(data);
  }
  return data;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });
}

/** Download bytes from a signed link (masked files, cited documents); links need no api-key. */
export async function fetchBytes(url: string, signal?: AbortSignal): Promise<ArrayBuffer> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw await errorFromResponse(res);
  return res.arrayBuffer();
}
