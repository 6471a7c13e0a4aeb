import { useEffect, useRef, useState } from 'react';
import { streamChat } from '../../api/chat-stream.js';
import type { Annotation } from '../../api/types.js';
import { useT } from '../../i18n/translate.js';
import { useChat } from '../../state/chat.js';
import { connection, useSession } from '../../state/session.js';
import { useWorkspace } from '../../state/workspace.js';
import { describeError } from '../library/start-tasks.js';
import { ErrorNote } from '../viewer/ErrorNote.js';
import { MessageText } from './MessageText.js';

/** Streaming finance Q&A over the user's documents; citations open the viewer at the cited page. */
export function ChatPane() {
  const t = useT();
  const { conversations, currentId, newConversation, open, append, extendLast, remove } = useChat();
  const openCitation = useWorkspace((s) => s.openCitation);
  const [input, setInput] = useState('');
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const current = conversations.find((c) => c.id === currentId);

  // braces: scrollIntoView returns a promise in current Chromium, and an effect may only return a cleanup function
  useEffect(() => {
    endRef.current?.scrollIntoView({ block: 'end' });
  }, [current?.messages]);
  useEffect(
    () => () => {
      abortRef.current?.abort();
    },
    [],
  );

  async function send() {
    const question = input.trim();
    if (!question || streaming) return;
    const id = current?.id ?? newConversation();
    const history = [...(useChat.getState().conversations.find((c) => c.id === id)?.messages ?? []), { role: 'user' as const, content: question }];
    append(id, { role: 'user', content: question });
    append(id, { role: 'assistant', content: '', annotations: [] });
    setInput('');
    setError(null);
    setStreaming(true);
    const ac = new AbortController();
    abortRef.current = ac;
    try {
      await streamChat(
        connection(),
        history,
        {
          onDelta: (text) => extendLast(id, text),
          onAnnotations: (a) => extendLast(id, '', a),
          onFinish: () => undefined,
        },
        ac.signal,
      );
    } catch (err) {
      if ((err as Error).name === 'AbortError') extendLast(id, ` ${t('chat.stopped')}`);
      else {
        const e = describeError(err);
        if (e.code === 'invalid_api_key') useSession.getState().refuseKey();
        setError(e);
      }
    } finally {
      setStreaming(false);
      abortRef.current = null;
    }
  }

  const cite = (a: Annotation) => openCitation({ fileName: a.file_name, url: a.url, page: a.page_number });

  return (
    <div className="chat">
      <aside className="chat-history">
        <button onClick={() => newConversation()}>{t('chat.new')}</button>
        <ul>
          {conversations.map((c) => (
            <li key={c.id} className={c.id === currentId ? 'on' : ''}>
              <button className="link" onClick={() => open(c.id)} title={c.title}>
                {c.title || '…'}
              </button>
              <button className="icon" aria-label="delete" onClick={() => remove(c.id)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      </aside>
      <section className="chat-main">
        <div className="messages" data-testid="messages">
          {!current?.messages.length && <div className="empty">{t('chat.empty')}</div>}
          {current?.messages.map((m, i) => (
            <div key={i} className={`message message-${m.role}`} data-testid={`message-${m.role}`}>
              {m.content ? <MessageText text={m.content} annotations={m.annotations ?? []} onCite={cite} /> : <div className="message-text">{streaming && i === current.messages.length - 1 ? '…' : ''}</div>}
              {!!m.annotations?.length && (
                <div className="citations">
                  <span className="muted">{t('chat.sources')}:</span>
                  {m.annotations.map((a) => (
                    <button key={`${a.file_name}#${a.page_number}`} className="chip citation" data-testid="citation" data-page={a.page_number} onClick={() => cite(a)} title={a.file_name}>
                      {a.file_name} · p.{a.page_number}
                    </button>
                  ))}
                </div>
              )}
            </div>
          ))}
          <div ref={endRef} />
        </div>
        {error && <ErrorNote code={error.code} message={error.message} />}
        <div className="composer">
          <textarea
            data-testid="chat-input"
            value={input}
            placeholder={t('chat.placeholder')}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void send();
              }
            }}
            rows={3}
          />
          {streaming ? (
            <button data-testid="chat-stop" onClick={() => abortRef.current?.abort()}>
              {t('chat.stop')}
            </button>
          ) : (
            <button data-testid="chat-send" className="primary" onClick={() => void send()} disabled={!input.trim()}>
              {t('chat.send')}
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
