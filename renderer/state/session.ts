import { create } from 'zustand';
import { apiBaseUrl, storeApiKey, takeApiKey } from '../api/connection.js';
import type { Connection } from '../api/client.js';

interface SessionState {
  baseUrl: string;
  apiKey: string | null;
  /** set when the server refused the key: the prompt shows again */
  keyRefused: boolean;
  setKey(key: string | null): void;
  refuseKey(): void;
}

export const useSession = create<SessionState>()((set) => ({
  baseUrl: apiBaseUrl(),
  apiKey: takeApiKey(),
  keyRefused: false,
  setKey: (key) => {
    storeApiKey(key);
    set({ apiKey: key, keyRefused: false });
  },
  refuseKey: () => set({ keyRefused: true }),
}));

/** The connection for API calls; only used under the key gate, so the key is present. */
export function connection(): Connection {
  const s = useSession.getState();
  return { baseUrl: s.baseUrl, apiKey: s.apiKey ?? '' };
}
