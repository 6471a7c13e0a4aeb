import type { ConversationTurn, GroundedAnswer } from './grounded-answer.js';

/**
 * The optional language model: any OpenAI-compatible upstream (Ollama, LM Studio, vLLM). It gets
 * the retrieved evidence and the figures the default answerer computed, and is told to answer from
 * them only and keep the [n] citation marks. (A GGUF run through node-llama-cpp would plug in here;
 * it is untested on these machines and not a dependency.)
 */
export interface LlmSettings {
  llmBaseUrl: string | null;
  llmModel: string | null;
  llmApiKey: string | null;
}

export interface LlmUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

export function llmMessages(messages: readonly ConversationTurn[], grounded: GroundedAnswer): { role: string; content: string }[] {
  const evidence = grounded.evidence
    .map((e) => {
      const n = grounded.citations.findIndex((c) => c.docId === e.citation.docId && c.pageNumber === e.citation.pageNumber) + 1;
      return `[${n}] ${e.citation.fileName}, page ${e.citation.pageNumber}: ${e.quote}`;
    })
    .join('\n');
  const facts = grounded.facts.length ? `\nComputed figures (already correct; use them as given, do not recompute):\n${grounded.facts.join('\n')}` : '';
  const system = [
    'You are a financial research assistant. Answer only from the evidence below, taken from the user\'s documents.',
    'Keep the citation marks like [1] after the statements they support. If the evidence does not answer the question, say it is not in the documents.',
    `Answer concisely in ${grounded.lang === 'zh' ? 'Chinese' : 'the language of the question'}.`,
    `\nEvidence:\n${evidence}${facts}`,
  ].join('\n');
  const out: { role: string; content: string }[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') out.push({ role: 'system', content: m.content });
    else if (m.role === 'user' || m.role === 'assistant') out.push({ role: m.role, content: m.content });
  }
  return out;
}

/** Streams the upstream's answer text; `usage` is filled when the upstream reports it. */
export async function* streamLlmAnswer(
  settings: LlmSettings,
  messages: { role: string; content: string }[],
  opts: { temperature: number; maxTokens: number | null; signal: AbortSignal },
  usage: { value: LlmUsage | null },
): AsyncGenerator<string> {
  const base = settings.llmBaseUrl!.replace(/\/+$/, '');
  const url = /\/chat\/completions$/.test(base) ? base : `${base}/chat/completions`;
  const res = await fetch(url, {
    method: 'POST',
    signal: opts.signal,
    headers: { 'content-type': 'application/json', ...(settings.llmApiKey ? { authorization: `Bearer ${settings.llmApiKey}` } : {}) },
    body: JSON.stringify({
      model: settings.llmModel ?? 'default',
      messages,
      stream: true,
      stream_options: { include_usage: true },
      temperature: opts.temperature,
      ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}),
    }),
  });
  if (!res.ok || !res.body) throw new Error(`the language model at ${url} answered HTTP ${res.status}`);
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      let obj: { choices?: { delta?: { content?: string | null } }[]; usage?: LlmUsage | null };
      try {
        obj = JSON.parse(data) as typeof obj;
      } catch {
        continue;
      }
      if (obj.usage) usage.value = { prompt_tokens: obj.usage.prompt_tokens, completion_tokens: obj.usage.completion_tokens };
      const piece = obj.choices?.[0]?.delta?.content;
      if (piece) yield piece;
    }
  }
}
