import type { KeyRecord } from '../api/context.js';
import type { Library } from '../store/library.js';
import { answerGrounded, type ConversationTurn, type GroundedAnswer } from './grounded-answer.js';
import { llmMessages, streamLlmAnswer, type LlmSettings, type LlmUsage } from './llm-answer.js';

/** Annotation as the spec states it: the cited file, a signed expiring link, the page. */
export interface ChatAnnotation {
  file_name: string;
  url: string;
  page_number: number;
}

export interface ChatAnswerInput {
  messages: readonly ConversationTurn[];
  maxTokens?: number | null;
  temperature: number;
  /** aborted when the client goes away: work stops */
  signal: AbortSignal;
  key: KeyRecord;
  library: Library;
  /** ctx.links.sign */
  sign: (path: string, extraQuery?: Record<string, string>) => string;
  settings: LlmSettings;
}

export interface ChatAnswer {
  annotations: ChatAnnotation[];
  /** the answer text, piece by piece (streamed as it is produced) */
  pieces: AsyncIterable<string>;
  /** token counts from the upstream model, when one answered and reported them */
  upstreamUsage(): LlmUsage | null;
  /** which answerer produced the text */
  answerer: 'grounded' | 'llm';
}

/**
 * Answers a conversation from the key's library. The default answerer needs no language model;
 * with settings.llmBaseUrl the upstream model words the answer from the same evidence and figures.
 */
export async function answerChat(input: ChatAnswerInput): Promise<ChatAnswer> {
  if (input.signal.aborted) throw new Error('the request was aborted');
  const grounded = answerGrounded(input.library, input.key, input.messages);
  const annotations = grounded.citations.map((c) => ({
    file_name: c.fileName,
    url: `${input.sign(`/files/docs/${c.docId}`, { page: String(c.pageNumber) })}#page=${c.pageNumber}`,
    page_number: c.pageNumber,
  }));
  const usage: { value: LlmUsage | null } = { value: null };
  if (input.settings.llmBaseUrl && grounded.found) {
    return { annotations, pieces: llmPieces(input, grounded, usage), upstreamUsage: () => usage.value, answerer: 'llm' };
  }
  return { annotations, pieces: textPieces(grounded.text, input.signal), upstreamUsage: () => null, answerer: 'grounded' };
}

/** The upstream model's answer; when the upstream cannot be reached before it says anything, the grounded answer instead. */
async function* llmPieces(input: ChatAnswerInput, grounded: GroundedAnswer, usage: { value: LlmUsage | null }): AsyncGenerator<string> {
  let said = false;
  try {
    for await (const piece of streamLlmAnswer(input.settings, llmMessages(input.messages, grounded), { temperature: input.temperature, maxTokens: input.maxTokens ?? null, signal: input.signal }, usage)) {
      said = true;
      yield piece;
    }
  } catch (err) {
    if (said || input.signal.aborted) throw err;
    usage.value = null;
    yield* textPieces(grounded.text, input.signal);
  }
}

/** Word-sized pieces, so a stream shows the answer as it goes and max_tokens can cut between pieces. */
async function* textPieces(text: string, signal: AbortSignal): AsyncGenerator<string> {
  for (const m of text.matchAll(/\S+\s*|\s+/g)) {
    if (signal.aborted) return;
    yield m[0];
  }
}
