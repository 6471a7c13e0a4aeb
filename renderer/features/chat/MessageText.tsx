import type { Annotation } from '../../api/types.js';

/** Answer text with its `[n]` markers turned into links to the n-th cited source. */
export function MessageText({ text, annotations, onCite }: { text: string; annotations: Annotation[]; onCite(a: Annotation): void }) {
  const parts = text.split(/(\[\d{1,3}\])/);
  return (
    <div className="message-text">
      {parts.map((p, i) => {
        const m = /^\[(\d{1,3})\]$/.exec(p);
        const a = m ? annotations[Number(m[1]) - 1] : undefined;
        if (!a) return p;
        return (
          <button key={i} className="cite-ref" data-testid="citation-ref" title={`${a.file_name} · p.${a.page_number}`} onClick={() => onCite(a)}>
            {p}
          </button>
        );
      })}
    </div>
  );
}
