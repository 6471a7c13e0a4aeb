import { useCallback, useMemo, useState } from 'react';
import { fetchBytes } from '../../api/client.js';
import type { ParseResult } from '../../api/types.js';
import { useT } from '../../i18n/translate.js';
import { selectedTask, useWorkspace } from '../../state/workspace.js';
import { fileKind } from '../library/file-kind.js';
import { ErrorNote } from './ErrorNote.js';
import { MarkdownView } from './MarkdownView.js';
import { PageView } from './PageView.js';
import { baseName, downloadText } from './export-file.js';
import { boxesOfParseResult, type OverlayBox } from './overlay-box.js';
import { firstResult, isFailedEntry } from './task-result.js';
import { markdownOf } from './to-markdown.js';
import { useDocument } from './use-document.js';

/** Parsed document with its boxes (or a cited document opened at its page). */
export function Viewer() {
  const t = useT();
  const task = useWorkspace(selectedTask);
  const cited = useWorkspace((s) => s.cited);
  const [showBoxes, setShowBoxes] = useState(true);
  const [showMarkdown, setShowMarkdown] = useState(false);
  const [selected, setSelected] = useState<OverlayBox | null>(null);
  const [copied, setCopied] = useState(false);

  const citedLoader = useMemo(() => (cited ? () => fetchBytes(cited.url).then((b) => new Blob([b])) : null), [cited]);
  const source = cited ? citedLoader : (task?.file ?? null);
  const kind = cited ? fileKind(cited.fileName) : (task?.kind ?? 'other');
  const { doc, error: loadError } = useDocument(source, kind);

  // a cited document shows the boxes of its parse when this session parsed a file of that name
  const citedParse = useWorkspace((s) =>
    cited ? s.tasks.find((t) => t.operation === 'parse' && t.status === 'SUCCESS' && t.fileName === cited.fileName) : undefined,
  );
  const raw = firstResult(cited ? citedParse?.data : task?.data);
  const result = raw && !isFailedEntry(raw) && (cited ? !!citedParse : task?.operation === 'parse') ? (raw as ParseResult) : undefined;
  const failed = isFailedEntry(raw) ? raw : undefined;
  const boxes = useMemo(() => (result ? boxesOfParseResult(result) : []), [result]);
  const markdown = useMemo(() => (result ? markdownOf(result) : ''), [result]);

  const pageSizes = useMemo(() => {
    const m = new Map<number, { width: number; height: number }>();
    for (const b of boxes) if (b.layoutWidth && b.layoutHeight) m.set(b.page, { width: b.layoutWidth, height: b.layoutHeight });
    return m;
  }, [boxes]);
  const pageCount = Math.max(doc?.sizes.length ?? 0, ...pageSizes.keys(), 0);

  const copy = useCallback((text: string) => {
    void navigator.clipboard?.writeText(text).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1200);
    });
  }, []);

  if (!task && !cited) return <div className="empty">{t('viewer.empty')}</div>;
  const name = cited?.fileName ?? task?.fileName ?? '';

  return (
    <div className="viewer">
      <div className="toolbar">
        <span className="doc-name" title={name}>
          {name}
        </span>
        {pageCount > 0 && <span className="muted">{t('viewer.pages', { n: pageCount })}</span>}
        {task && !cited && <span className={`state state-${task.status}`}>{t(`state.${task.status}`)}</span>}
        <span className="spacer" />
        {result && (
          <>
            <label className="toggle">
              <input type="checkbox" checked={showBoxes} onChange={(e) => setShowBoxes(e.target.checked)} /> {t('viewer.boxes')}
            </label>
            <label className="toggle">
              <input type="checkbox" checked={showMarkdown} onChange={(e) => setShowMarkdown(e.target.checked)} data-testid="markdown-toggle" />{' '}
              {t('viewer.markdown')}
            </label>
            <button onClick={() => copy(JSON.stringify(result, null, 2))}>{copied ? t('viewer.copied') : t('viewer.copyJson')}</button>
            <button onClick={() => copy(markdown)}>{t('viewer.copyMd')}</button>
            <button onClick={() => downloadText(`${baseName(name)}.json`, JSON.stringify(result, null, 2), 'application/json')}>{t('viewer.exportJson')}</button>
            <button onClick={() => downloadText(`${baseName(name)}.md`, markdown, 'text/markdown')}>{t('viewer.exportMd')}</button>
          </>
        )}
      </div>
      {task?.error && !cited && <ErrorNote code={task.error.code} message={task.error.message} />}
      {failed && <ErrorNote code={failed.err_code} message={failed.err_message} />}
      {loadError && <ErrorNote code={cited ? 'FILE_DOWNLOAD_FAILED' : 'INVALID_DOCUMENT'} message={loadError} />}
      <div className="viewer-body">
        <div className="pages" data-testid="pages">
          {showMarkdown && result ? (
            <MarkdownView text={markdown} />
          ) : doc ? (
            <>
              {doc.kind === 'blank' && <div className="muted">{t('viewer.noImage')}</div>}
              {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
                <PageView
                  key={n}
                  doc={doc}
                  pageNumber={n}
                  fallbackSize={pageSizes.get(n)}
                  boxes={boxes.filter((b) => b.page === n)}
                  showBoxes={showBoxes}
                  selectedKey={selected?.key}
                  onSelect={setSelected}
                  highlighted={cited?.page === n}
                />
              ))}
            </>
          ) : (
            !loadError && <div className="muted">{t('viewer.loading')}</div>
          )}
        </div>
        {result && !showMarkdown && (
          <aside className="inspector" data-testid="inspector">
            <h3>{t('viewer.json')}</h3>
            {selected ? <pre className="json">{JSON.stringify(selected.json, null, 2)}</pre> : <p className="muted">{t('viewer.selectHint')}</p>}
          </aside>
        )}
      </div>
    </div>
  );
}
