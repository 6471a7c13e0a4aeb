import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';

/** Tokens as OpenAI counts them (o200k_base), for usage and max_tokens. */
let encoder: Tiktoken | null = null;
function enc(): Tiktoken {
  encoder ??= new Tiktoken(o200k_base);
  return encoder;
}

export function countTokens(text: string): number {
  return text ? enc().encode(text).length : 0;
}

/** Prompt tokens of a conversation: the contents plus OpenAI's per-message framing (about 3 tokens each, 3 to prime). */
export function countPromptTokens(messages: readonly { role: string; content: string }[]): number {
  let n = 3;
  for (const m of messages) n += 3 + countTokens(m.role) + countTokens(m.content);
  return n;
}

/** The first `limit` tokens of text (for a max_tokens cut). */
export function truncateToTokens(text: string, limit: number): string {
  if (limit <= 0) return '';
  const ids = enc().encode(text);
  return ids.length <= limit ? text : enc().decode(ids.slice(0, limit));
}

/** Load the encoder ahead of the first request (it takes a moment to build). */
export function warmTokenCounter(): void {
  enc();
}
