import { useEffect, useState } from 'react';
import type { FileKind } from '../../state/workspace.js';
import { loadDocument, releaseDocument, type LoadedDocument } from './load-document.js';

/** Load a file (or bytes fetched from a link) for display; released when the source changes. */
export function useDocument(source: Blob | (() => Promise<Blob>) | null, kind: FileKind): { doc: LoadedDocument | null; error: string | null } {
  const [doc, setDoc] = useState<LoadedDocument | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!source) return;
    let cancelled = false;
    let loaded: LoadedDocument | null = null;
    setDoc(null);
    setError(null);
    (async () => {
      const blob = typeof source === 'function' ? await source() : source;
      loaded = await loadDocument(blob, kind);
      if (cancelled) releaseDocument(loaded);
      else setDoc(loaded);
    })().catch((e: unknown) => {
      if (!cancelled) setError(e instanceof Error ? `${(e as { code?: string }).code ? `${(e as { code?: string }).code}: ` : ''}${e.message}` : String(e));
    });
    return () => {
      cancelled = true;
      if (loaded) releaseDocument(loaded);
    };
  }, [source, kind]);
  return { doc, error };
}
