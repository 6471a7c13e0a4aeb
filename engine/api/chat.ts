import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ulid } from 'ulid';
import { answerChat, type ChatAnnotation } from '../chat/answer-chat.js';
import { countPromptTokens, countTokens, truncateToTokens, warmTokenCounter } from '../chat/token-count.js';
import { Library } from '../store/library.js';
import type { AppContext, KeyRecord } from './context.js';

/**
 * POST /v1/chat/completions, OpenAI's chat completions protocol exactly (model `fin-chat`):
 * a `chat.completion` object, or an SSE stream of `chat.completion.chunk` ending with `data: [DONE]`.
 * Errors use OpenAI's shape {error:{message,type,code,param}}. Limits per ARCHITECTURE.md "Chat".
 */
export const CHAT_MODEL = 'fin-chat';
const KEEP_ALIVE_MS = 15_000;

interface ChatMessageIn {
  role: string;
  content: string;
}

interface ChatRequest {
  messages: ChatMessageIn[];
  stream: boolean;
  includeUsage: boolean;
  temperature: number;
  maxTokens: number | null;
}

class ChatHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null,
    readonly param: string | null = null,
  ) {
    super(message);
  }
  body(): { error: { message: string; type: string; code: string | null; param: string | null } } {
    return { error: { message: this.message, type: this.type, code: this.code, param: this.param } };
  }
}

const invalid = (message: string, code: string, param: string | null = null) => new ChatHttpError(400, message, 'invalid_request_error', code, param);

function contentText(content: unknown, i: number): string {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        const p = part as { type?: unknown; text?: unknown };
        if (p && typeof p === 'object' && (p.type === 'text' || p.type === 'input_text') && typeof p.text === 'string') return p.text;
        throw invalid(`messages[${i}].content: only text parts are supported`, 'invalid_value', `messages[${i}].content`);
      })
      .join('\n');
  }
  throw invalid(`messages[${i}].content must be a string`, 'invalid_type', `messages[${i}].content`);
}

export function readChatRequest(body: unknown): ChatRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('the request body must be a JSON object', 'invalid_request');
  const b = body as Record<string, unknown>;
  if (b.model === undefined) throw invalid("you must provide a model parameter ('fin-chat')", 'missing_required_parameter', 'model');
  if (b.model !== CHAT_MODEL) throw invalid(`The model '${String(b.model)}' does not exist; this server offers '${CHAT_MODEL}'`, 'model_not_found', 'model');
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw invalid('messages must be a non-empty array', b.messages === undefined ? 'missing_required_parameter' : 'invalid_type', 'messages');
  const messages: ChatMessageIn[] = b.messages.map((m: unknown, i: number) => {
    const mm = m as { role?: unknown; content?: unknown };
    if (!mm || typeof mm !== 'object') throw invalid(`messages[${i}] must be an object`, 'invalid_type', `messages[${i}]`);
    if (typeof mm.role !== 'string' || !['system', 'developer', 'user', 'assistant', 'tool'].includes(mm.role)) {
      throw invalid(`messages[${i}].role must be one of system, user, assistant`, 'invalid_value', `messages[${i}].role`);
    }
    return { role: mm.role, content: contentText(mm.content, i) };
  });
  if (!messages.some((m) => m.role === 'user')) throw invalid('messages must contain a user message', 'invalid_value', 'messages');
  let temperature = 1;
  if (b.temperature !== undefined && b.temperature !== null) {
    if (typeof b.temperature !== 'number' || !Number.isFinite(b.temperature) || b.temperature < 0 || b.temperature > 2) {
      throw invalid('temperature must be a number from 0 to 2', 'invalid_value', 'temperature');
    }
    temperature = b.temperature;
  }
  let maxTokens: number | null = null;
  const mt = b.max_tokens ?? b.max_completion_tokens;
  if (mt !== undefined && mt !== null) {
    if (typeof mt !== 'number' || !Number.isInteger(mt) || mt < 1) throw invalid('max_tokens must be a positive integer', 'invalid_value', 'max_tokens');
    maxTokens = mt;
  }
  if (b.stream !== undefined && b.stream !== null && typeof b.stream !== 'boolean') throw invalid('stream must be a boolean', 'invalid_type', 'stream');
  const so = b.stream_options as { include_usage?: unknown } | undefined | null;
  if (so !== undefined && so !== null && (typeof so !== 'object' || (so.include_usage !== undefined && typeof so.include_usage !== 'boolean'))) {
    throw invalid('stream_options.include_usage must be a boolean', 'invalid_type', 'stream_options');
  }
  if (b.n !== undefined && b.n !== null && b.n !== 1) throw invalid('only n = 1 is supported', 'invalid_value', 'n');
  return { messages, stream: b.stream === true, includeUsage: so?.include_usage === true, temperature, maxTokens };
}

/** A sliding one-minute window of request times per key. */
class RateWindow {
  private readonly hits = new Map<string, number[]>();
  take(keyId: string, perMinute: number, now = Date.now()): number | null {
    const list = (this.hits.get(keyId) ?? []).filter((t) => now - t < 60_000);
    if (list.length >= perMinute) {
      this.hits.set(keyId, list);
      return Math.max(1, Math.ceil((60_000 - (now - list[0]!)) / 1000));
    }
    list.push(now);
    this.hits.set(keyId, list);
    return null;
  }
}

function bearerKey(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  const h = req.headers['api-key'];
  return typeof h === 'string' && h ? h.trim() : undefined;
}

export function authenticateChat(ctx: AppContext, req: FastifyRequest): KeyRecord {
  const key = ctx.keys.authenticate(bearerKey(req));
  if (!key) throw new ChatHttpError(401, 'Incorrect API key provided. Send it as Authorization: Bearer <key>.', 'invalid_request_error', 'invalid_api_key');
  return key;
}

function chatLibrary(ctx: AppContext): Library {
  if (!(ctx.library instanceof Library)) throw new ChatHttpError(500, 'the chat library is not available', 'server_error', 'internal_error');
  return ctx.library;
}

export function sendChatError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof ChatHttpError) return reply.code(err.status).send(err.body());
  throw err;
}

export function registerChatRoutes(app: FastifyInstance, ctx: AppContext): void {
  const rate = new RateWindow();
  // Loading the o200k tables costs about a second of CPU: do it once the server listens, not before.
  app.addHook('onListen', (done) => {
    setTimeout(warmTokenCounter, 200).unref();
    done();
  });

  app.post('/v1/chat/completions', async (req, reply) => {
    let key: KeyRecord;
    let chatReq: ChatRequest;
    let library: Library;
    try {
      key = authenticateChat(ctx, req);
      chatReq = readChatRequest(req.body);
      const retry = rate.take(key.id, Math.max(1, ctx.settings.chatRateLimitPerMinute));
      if (retry !== null) {
        reply.header('retry-after', String(retry));
        throw new ChatHttpError(429, `Rate limit reached: ${ctx.settings.chatRateLimitPerMinute} requests per minute for this key. Try again in ${retry} s.`, 'rate_limit_error', 'rate_limit_exceeded');
      }
      const balance = ctx.usage.balance(key.id);
      if (balance !== null && balance <= 0) {
        throw new ChatHttpError(429, 'You exceeded your current quota: the balance of this key is used up.', 'insufficient_quota', 'insufficient_quota');
      }
      library = chatLibrary(ctx);
    } catch (err) {
      return sendChatError(reply, err);
    }

    const id = `chatcmpl-${ulid()}`;
    const created = Math.floor(Date.now() / 1000);
    const abort = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) abort.abort();
    };
    reply.raw.on('close', onClose);
    const promptTokens = countPromptTokens(chatReq.messages);
    const answer = await answerChat({
      messages: chatReq.messages,
      maxTokens: chatReq.maxTokens,
      temperature: chatReq.temperature,
      signal: abort.signal,
      key,
      library,
      sign: (path, q) => ctx.links.sign(path, q),
      settings: ctx.settings,
    });

    const budget = chatReq.maxTokens;
    let completionTokens = 0;
    let finish: 'stop' | 'length' = 'stop';
    /** yields the answer's pieces cut to max_tokens */
    async function* limited(): AsyncGenerator<string> {
      for await (const piece of answer.pieces) {
        if (abort.signal.aborted) return;
        const n = countTokens(piece);
        if (budget !== null && completionTokens + n > budget) {
          const rest = truncateToTokens(piece, budget - completionTokens);
          completionTokens = budget;
          finish = 'length';
          if (rest) yield rest;
          return;
        }
        completionTokens += n;
        yield piece;
        if (budget !== null && completionTokens >= budget) {
          finish = 'length';
          return;
        }
      }
    }
    const usage = () => {
      const up = answer.upstreamUsage();
      const completion = up && finish === 'stop' ? up.completion_tokens : completionTokens;
      return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
    };
    const debit = () => {
      const u = usage();
      ctx.usage.debit(key.id, Math.max(1, Math.ceil(u.total_tokens / 1000)), 'chat', id);
    };

    if (!chatReq.stream) {
      let content = '';
      try {
        for await (const piece of limited()) content += piece;
      } finally {
        reply.raw.off('close', onClose);
      }
      if (abort.signal.aborted) {
        // the client is gone: nothing to send; what was produced is still billed
        debit();
        reply.hijack();
        return;
      }
      debit();
      const message: { role: 'assistant'; content: string; refusal: null; annotations?: ChatAnnotation[] } = { role: 'assistant', content, refusal: null };
      if (answer.annotations.length > 0) message.annotations = answer.annotations;
      return reply.send({
        id,
        object: 'chat.completion',
        created,
        model: CHAT_MODEL,
        choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
        usage: usage(),
        service_tier: 'default',
        system_fingerprint: null,
      });
    }

    // SSE: headers written by hand on the raw response (keeping headers set by hooks, e.g. CORS)
    reply.hijack();
    const res = reply.raw;
    const headers: Record<string, string | string[] | number> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = v as string | string[] | number;
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.socket?.setNoDelay(true);
    res.flushHeaders();
    const send = (obj: unknown) => {
      if (!res.writableEnded && !res.destroyed) res.write(`data: ${JSON.stringify(obj)}\n\n`);
    };
    const chunk = (delta: Record<string, unknown>, finishReason: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: CHAT_MODEL,
      service_tier: 'default',
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage: null,
    });
    const keepAlive = setInterval(() => {
      if (!res.writableEnded && !res.destroyed) res.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS);
    try {
      send(chunk({ role: 'assistant', content: '', refusal: null, annotations: answer.annotations }, null));
      for await (const piece of limited()) send(chunk({ role: 'assistant', content: piece, refusal: null, annotations: [] }, null));
      if (abort.signal.aborted) {
        debit();
        return;
      }
      send(chunk({ role: 'assistant', content: '', refusal: null, annotations: [] }, finish));
      if (chatReq.includeUsage) send({ id, object: 'chat.completion.chunk', created, model: CHAT_MODEL, service_tier: 'default', system_fingerprint: null, choices: [], usage: usage() });
      debit();
      res.write('data: [DONE]\n\n');
    } catch (err) {
      if (!abort.signal.aborted) {
        send({ error: { message: `the answer failed: ${(err as Error).message}`, type: 'server_error', code: 'internal_error', param: null } });
        res.write('data: [DONE]\n\n');
      }
    } finally {
      clearInterval(keepAlive);
      res.off('close', onClose);
      if (!res.writableEnded) res.end();
    }
  });
}
