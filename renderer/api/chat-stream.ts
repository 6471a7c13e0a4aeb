import { errorFromResponse } from './api-error.js';
import type { Connection } from './client.js';
import type { Annotation, ChatChunk, ChatMessage } from './types.js';

export interface StreamHandlers {
  onDelta(text: string): void;
  onAnnotations(a: Annotation[]): void;
  onFinish(reason: string | null): void;
}

/**
 * Split an SSE byte stream into `data:` payloads. Events are separated by a blank line; comment lines
 * (keep-alives, starting with ':') are skipped; a payload can span several `data:` lines.
 */
export function createSseParser(onData: (payload: string) => void): (chunk: string) => void {
  let buffer = '';
  return (chunk: string) => {
    buffer += chunk.replace(/\r\n/g, '\n');
    let idx: number;
    while ((idx = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, idx);
      buffer = buffer.slice(idx + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) onData(data);
    }
  };
}

/** POST /v1/chat/completions with stream: true; resolves when `data: [DONE]` arrives or the stream ends. */
export async function streamChat(c: Connection, messages: ChatMessage[], h: StreamHandlers, signal?: AbortSignal): Promise<void> {
  const res = await fetch(`${c.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${c.apiKey}`, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'fin-chat', stream: true, messages: messages.map(({ role, content }) => ({ role, content })) }),
    signal,
  });
  if (!res.ok || !res.body) throw await errorFromResponse(res);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let done = false;
  const feed = createSseParser((payload) => {
    if (payload.trim() === '[DONE]') {
      done = true;
      return;
    }
    let chunk: ChatChunk;
    try {
      chunk = JSON.parse(payload) as ChatChunk;
    } catch {
      return; // the spec warns of stream parse errors: skip a malformed event, keep the stream
    }
    for (const choice of chunk.choices ?? []) {
      if (choice.delta?.content) h.onDelta(choice.delta.content);
      if (choice.delta?.annotations?.length) h.onAnnotations(choice.delta.annotations);
      if (choice.finish_reason) h.onFinish(choice.finish_reason);
    }
  });
  while (!done) {
    const { value, done: end } = await reader.read();
    if (end) break;
    feed(value);
  }
  if (done) await reader.cancel().catch(() => undefined);
}
