import { useEffect, useMemo, useState } from 'react';
import type { ParseResult } from '../../api/types.js';
import { useT } from '../../i18n/translate.js';
import { selectedTask, useWorkspace } from '../../state/workspace.js';
import { ErrorNote } from '../viewer/ErrorNote.js';
import { PageView } from '../viewer/PageView.js';
import { baseName, downloadText } from '../viewer/export-file.js';
import type { OverlayBox } from '../viewer/overlay-box.js';
import { isFailedEntry } from '../viewer/task-result.js';
import { useDocument } from '../viewer/use-document.js';
import { TemplateForm } from './TemplateForm.js';
import { fieldRowsOf, linkValuesToBlocks, templateOf } from './field-rows.js';
import { pdfTextLines } from './pdf-text-lines.js';

/** Extracted fields as a form beside the page; each value linked to its box. */
export function ExtractView() {
  const t = useT();
  const task = useWorkspace(selectedTask);
  const isExtract = task?.operation === 'extract';
  const { doc, error } = useDocument(isExtract ? task.file : null, task?.kind ?? 'other');
  const [selected, setSelected] = useState<string | null>(null);
  const [locator, setLocator] = useState<ParseResult | undefined>(undefined);

  // values of modes without boxes are located in the PDF's own text layer, here in the page
  useEffect(() => {
    setLocator(undefined);
    if (doc?.kind !== 'pdf') return;
    let cancelled = false;
    void pdfTextLines(doc.pdf).then(
      (blocks) => !cancelled && setLocator({ file_name: '', blocks }),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [doc]);

  const results = useMemo(() => (isExtract ? (task.data?.results ?? []) : []), [isExtract, task?.data]);
  const rows = useMemo(() => (isExtract ? linkValuesToBlocks(fieldRowsOf(task.mode, results), locator) : []), [isExtract, task?.mode, results, locator]);
  const boxes: OverlayBox[] = useMemo(
    () =>
      rows.flatMap((r) =>
        r.values.flatMap((v, i) =>
          v.bbox && v.page
            ? [{ key: `${r.name}#${i}`, page: v.page, bbox: v.bbox, type: r.name, text: v.value, layoutWidth: v.layoutWidth, layoutHeight: v.layoutHeight, json: { field: r.name, ...v } }]
            : [],
        ),
      ),
    [rows],
  );

  if (!isExtract) return <div className="empty">{t('extract.empty')}</div>;
  const failed = results.find(isFailedEntry);
  const selectedBox = boxes.find((b) => b.key === selected);
  const pageCount = doc?.sizes.length ?? 0;

  return (
    <div className="viewer">
      <div className="toolbar">
        <span className="doc-name">{task.fileName}</span>
        <span className="muted">{task.mode}</span>
        <span className={`state state-${task.status}`}>{t(`state.${task.status}`)}</span>
        <span className="spacer" />
        {task.data?.results && (
          <button onClick={() => downloadText(`${baseName(task.fileName)}.extract.json`, JSON.stringify(task.data?.results, null, 2), 'application/json')}>
            {t('viewer.exportJson')}
          </button>
        )}
      </div>
      {task.error && <ErrorNote code={task.error.code} message={task.error.message} />}
      {failed && <ErrorNote code={failed.err_code} message={failed.err_message} />}
      {error && <ErrorNote code="INVALID_DOCUMENT" message={error} />}
      <div className="split">
        <div className="pages">
          {doc &&
            Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
              <PageView
                key={n}
                doc={doc}
                pageNumber={n}
                boxes={boxes.filter((b) => b.page === n)}
                showBoxes
                selectedKey={selected}
                onSelect={(b) => setSelected(b.key)}
                highlighted={selectedBox?.page === n}
              />
            ))}
        </div>
        <div className="form-column" data-testid="fields">
          {task.status === 'SUCCESS' ? (
            <TemplateForm kind={templateOf(task.mode)} rows={rows} selected={selected} onSelect={setSelected} />
          ) : (
            !task.error && <div className="muted">{t(`state.${task.status}`)}…</div>
          )}
        </div>
      </div>
    </div>
  );
}
