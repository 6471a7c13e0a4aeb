import { errorFromResponse } from './api-error.js';
import type { Connection } from './client.js';

/** A key as GET /v1/keys lists it (the raw key is only shown once, at creation). */
export interface KeyInfo {
  id: string;
  name: string;
  balance: number | null;
  owner: boolean;
  revoked: boolean;
  createdAt: string | null;
}

export interface UsageInfo {
  balance: number | null;
  entries: { at: string; kind: string; pages: number; ref: string }[];
}

function headers(c: Connection, json = false): HeadersInit {
  return json ? { 'api-key': c.apiKey, 'Content-Type': 'application/json' } : { 'api-key': c.apiKey };
}

/** The key and usage endpoints are extensions; accept the list at the top level, in `data`, or in `keys`. */
function pickArray(body: unknown, names: string[]): unknown[] {
  if (Array.isArray(body)) return body;
  const o = (body ?? {}) as Record<string, unknown>;
  for (const n of names) {
    const v = o[n];
    if (Array.isArray(v)) return v;
    if (v && typeof v === 'object') {
      const inner = pickArray(v, names);
      if (inner.length) return inner;
    }
  }
  return [];
}

function toKey(raw: unknown): KeyInfo {
  const k = (raw ?? {}) as Record<string, unknown>;
  return {
    id: String(k.id ?? k.key_id ?? ''),
    name: String(k.name ?? ''),
    balance: typeof k.balance === 'number' ? k.balance : null,
    owner: Boolean(k.owner),
    revoked: Boolean(k.revoked ?? k.revoked_at),
    createdAt: typeof k.created_at === 'string' ? k.created_at : typeof k.created === 'number' ? new Date(k.created * 1000).toISOString() : null,
  };
}

export async function listKeys(c: Connection): Promise<KeyInfo[]> {
  const res = await fetch(`${c.baseUrl}/v1/keys`, { headers: headers(c) });
  if (!res.ok) throw await errorFromResponse(res);
  return pickArray(await res.json(), ['data', 'keys']).map(toKey);
}

/** POST /v1/keys: answers the new key's raw value once. */
export async function createKey(c: Connection, name: string, balance: number | null): Promise<{ key: string; info: KeyInfo }> {
  const res = await fetch(`${c.baseUrl}/v1/keys`, {
    method: 'POST',
    headers: headers(c, true),
    body: JSON.stringify(balance === null ? { name } : { name, balance }),
  });
  if (!res.ok) throw await errorFromResponse(res);
  const body = (await res.json()) as Record<string, unknown>;
  const rec = (body.data && typeof body.data === 'object' ? body.data : body) as Record<string, unknown>;
  return { key: String(rec.key ?? rec.api_key ?? ''), info: toKey(rec) };
}

export async function revokeKey(c: Connection, id: string): Promise<void> {
  const res = await fetch(`${c.baseUrl}/v1/keys/${encodeURIComponent(id)}`, { method: 'DELETE', headers: headers(c) });
  if (!res.ok) throw await errorFromResponse(res);
}

export async function getUsage(c: Connection): Promise<UsageInfo> {
  const res = await fetch(`${c.baseUrl}/v1/usage`, { headers: headers(c) });
  if (!res.ok) throw await errorFromResponse(res);
  const body = (await res.json()) as Record<string, unknown>;
  const rec = (body.data && typeof body.data === 'object' && !Array.isArray(body.data) ? body.data : body) as Record<string, unknown>;
  const entries = pickArray(rec, ['entries', 'ledger', 'usage', 'data']).map((raw) => {
    const e = (raw ?? {}) as Record<string, unknown>;
    const at = e.at ?? e.created_at ?? e.time ?? '';
    return { at: typeof at === 'number' ? new Date(at * 1000).toISOString() : String(at), kind: String(e.kind ?? ''), pages: Number(e.pages ?? 0), ref: String(e.ref ?? e.task_id ?? '') };
  });
  return { balance: typeof rec.balance === 'number' ? rec.balance : null, entries };
}
