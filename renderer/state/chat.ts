import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { Annotation, ChatMessage } from '../api/types.js';

export interface Conversation {
  id: string;
  title: string;
  messages: ChatMessage[];
  updatedAt: number;
}

interface ChatState {
  conversations: Conversation[];
  currentId: string | null;
  newConversation(): string;
  open(id: string): void;
  append(id: string, m: ChatMessage): void;
  /** add streamed text / citations to the last (assistant) message */
  extendLast(id: string, text: string, annotations?: Annotation[]): void;
  remove(id: string): void;
}

const MAX_CONVERSATIONS = 50;

/** Conversation history lives in this browser's local storage only. */
export const useChat = create<ChatState>()(
  persist(
    (set) => ({
      conversations: [],
      currentId: null,
      newConversation: () => {
        const id = `c${Date.now().toString(36)}`;
        set((s) => ({ conversations: [{ id, title: '', messages: [], updatedAt: Date.now() }, ...s.conversations].slice(0, MAX_CONVERSATIONS), currentId: id }));
        return id;
      },
      open: (id) => set({ currentId: id }),
      append: (id, m) =>
        set((s) => ({
          conversations: s.conversations.map((c) =>
            c.id === id ? { ...c, title: c.title || (m.role === 'user' ? m.content.slice(0, 60) : c.title), messages: [...c.messages, m], updatedAt: Date.now() } : c,
          ),
        })),
      extendLast: (id, text, annotations) =>
        set((s) => ({
          conversations: s.conversations.map((c) => {
            if (c.id !== id || c.messages.length === 0) return c;
            const last = c.messages[c.messages.length - 1]!;
            const merged = annotations ? mergeAnnotations(last.annotations ?? [], annotations) : last.annotations;
            return { ...c, messages: [...c.messages.slice(0, -1), { ...last, content: last.content + text, annotations: merged }], updatedAt: Date.now() };
          }),
        })),
      remove: (id) => set((s) => ({ conversations: s.conversations.filter((c) => c.id !== id), currentId: s.currentId === id ? null : s.currentId })),
    }),
    { name: 'docai.chat' },
  ),
);

function mergeAnnotations(a: Annotation[], b: Annotation[]): Annotation[] {
  const seen = new Set(a.map((x) => `${x.file_name}#${x.page_number}`));
  return [...a, ...b.filter((x) => !seen.has(`${x.file_name}#${x.page_number}`))];
}
