import { describe, expect, it } from 'vitest';
import { createSseParser } from '../../../renderer/api/chat-stream.js';

describe('SSE parsing of the chat stream', () => {
  it('joins events split across network chunks and skips keep-alive comments', () => {
    const got: string[] = [];
    const feed = createSseParser((d) => got.push(d));
    feed('data: {"a":');
    feed('1}\n');
    feed('\n: keep-alive\n\ndata: {"b":2}\r\n\r\ndata: [DO');
    feed('NE]\n\n');
    expect(got).toEqual(['{"a":1}', '{"b":2}', '[DONE]']);
  });

  it('joins a payload written over several data lines', () => {
    const got: string[] = [];
    createSseParser((d) => got.push(d))('data: line one\ndata: line two\n\n');
    expect(got).toEqual(['line one\nline two']);
  });
});
