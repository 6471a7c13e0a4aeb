import { useMemo, useState } from 'react';
import { fetchBytes } from '../../api/client.js';
import type { MaskResultItem } from '../../api/types.js';
import { useT } from '../../i18n/translate.js';
import { selectedTask, useWorkspace } from '../../state/workspace.js';
import { ErrorNote } from '../viewer/ErrorNote.js';
import { PageView } from '../viewer/PageView.js';
import { boxesOfMaskRegions, colourOf } from '../viewer/overlay-box.js';
import { firstResult } from '../viewer/task-result.js';
import { useDocument } from '../viewer/use-document.js';

type Layout = 'side' | 'toggle';

/** Original and masked copy, side by side or toggled, with the masked regions listed by category. */
export function MaskView() {
  const t = useT();
  const task = useWorkspace(selectedTask);
  const isMask = task?.operation === 'mask';
  const item = isMask ? (firstResult(task.data) as MaskResultItem | undefined) : undefined;
  const maskedUrl = item?.status === 'SUCCESS' ? item.url : undefined;
  const [layout, setLayout] = useState<Layout>('side');
  const [showMasked, setShowMasked] = useState(true);
  const [focus, setFocus] = useState<string | null>(null);

  const original = useDocument(isMask ? task.file : null, task?.kind ?? 'other');
  const maskedLoader = useMemo(() => (maskedUrl ? () => fetchBytes(maskedUrl).then((b) => new Blob([b])) : null), [maskedUrl]);
  const masked = useDocument(maskedLoader, task?.kind ?? 'other');

  const boxes = useMemo(() => boxesOfMaskRegions(item?.regions ?? []), [item]);
  const byCategory = useMemo(() => {
    const m = new Map<string, typeof boxes>();
    for (const b of boxes) m.set(b.type, [...(m.get(b.type) ?? []), b]);
    return [...m.entries()].sort((a, b) => b[1].length - a[1].length);
  }, [boxes]);

  if (!isMask) return <div className="empty">{t('mask.empty')}</div>;
  const focusBox = boxes.find((b) => b.key === focus);

  const column = (which: 'original' | 'masked') => {
    const d = which === 'original' ? original : masked;
    return (
      <div className="pages" data-testid={`mask-${which}`}>
        <h3 className="column-title">{t(which === 'original' ? 'mask.original' : 'mask.masked')}</h3>
        {d.error && <ErrorNote code="FILE_DOWNLOAD_FAILED" message={d.error} />}
        {d.doc &&
          d.doc.sizes.map((_, i) => (
            <PageView
              key={i}
              doc={d.doc!}
              pageNumber={i + 1}
              boxes={boxes.filter((b) => b.page === i + 1)}
              showBoxes
              solidBoxes={false}
              selectedKey={focus}
              onSelect={(b) => setFocus(b.key)}
              highlighted={focusBox?.page === i + 1}
            />
          ))}
      </div>
    );
  };

  return (
    <div className="viewer">
      <div className="toolbar">
        <span className="doc-name">{task.fileName}</span>
        <span className={`state state-${task.status}`}>{t(`state.${task.status}`)}</span>
        <span className="spacer" />
        <div className="segmented">
          <button className={layout === 'side' ? 'on' : ''} onClick={() => setLayout('side')}>
            {t('mask.sideBySide')}
          </button>
          <button className={layout === 'toggle' ? 'on' : ''} onClick={() => setLayout('toggle')}>
            {t('mask.toggle')}
          </button>
        </div>
        {layout === 'toggle' && (
          <button onClick={() => setShowMasked((v) => !v)} data-testid="mask-flip">
            {t('mask.showing', { which: t(showMasked ? 'mask.masked' : 'mask.original') })}
          </button>
        )}
        {maskedUrl && (
          <a className="button" href={maskedUrl} download={item?.file_name} data-testid="mask-download">
            {t('mask.download')}
          </a>
        )}
      </div>
      {task.error && <ErrorNote code={task.error.code} message={task.error.message} />}
      {item?.status === 'FAILED' && <ErrorNote code={item.err_code ?? 'INVALID_DOCUMENT'} message={item.err_message} />}
      <div className="split">
        {layout === 'side' ? (
          <div className="side-by-side">
            {column('original')}
            {column('masked')}
          </div>
        ) : (
          column(showMasked ? 'masked' : 'original')
        )}
        <aside className="inspector" data-testid="mask-regions">
          {item?.masked_fields && (
            <>
              <h3>{t('mask.fieldsMasked')}</h3>
              <div className="chips">
                {item.masked_fields.map((f) => (
                  <span key={f} className="chip" style={{ borderColor: colourOf(f) }}>
                    {f}
                  </span>
                ))}
              </div>
            </>
          )}
          <h3>{t('mask.regions')}</h3>
          {byCategory.map(([cat, list]) => (
            <details key={cat} open>
              <summary>
                <span className="swatch" style={{ background: colourOf(cat) }} /> {cat} ({list.length})
              </summary>
              <ul className="region-list">
                {list.map((b) => (
                  <li key={b.key}>
                    <button className={focus === b.key ? 'selected' : ''} onClick={() => setFocus(b.key)}>
                      {t('extract.pageN', { n: b.page })} [{b.bbox.map((x) => Math.round(x)).join(', ')}]
                    </button>
                  </li>
                ))}
              </ul>
            </details>
          ))}
        </aside>
      </div>
    </div>
  );
}
