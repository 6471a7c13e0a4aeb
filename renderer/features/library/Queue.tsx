import { useEffect, useState } from 'react';
import type { MessageKey } from '../../i18n/en.js';
import { useT } from '../../i18n/translate.js';
import { VIEW_OF_OPERATION, useWorkspace, type TaskEntry } from '../../state/workspace.js';

/** Upload percentage while uploading, seconds while processing, total time when finished. */
function progressOf(t: TaskEntry, now: number): string {
  if (t.status === 'uploading') return t.uploaded !== undefined ? `${Math.round(t.uploaded * 100)}%` : '';
  if (t.finishedAt !== undefined) return `${((t.finishedAt - t.submittedAt) / 1000).toFixed(1)} s`;
  return t.processingSince !== undefined ? `${Math.floor((now - t.processingSince) / 1000)} s` : '';
}

/** Every task of this session with its state; selecting one opens its view. */
export function Queue() {
  const t = useT();
  const tasks = useWorkspace((s) => s.tasks);
  const selectedId = useWorkspace((s) => s.selectedId);
  const select = useWorkspace((s) => s.select);
  const setView = useWorkspace((s) => s.setView);
  const clearFinished = useWorkspace((s) => s.clearFinished);
  const busy = tasks.some((t) => t.finishedAt === undefined);
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => setNow(performance.now()), 1000);
    return () => clearInterval(timer);
  }, [busy]);
  return (
    <div className="queue" data-testid="queue">
      <div className="queue-head">
        <h3>{t('queue.title')}</h3>
        {tasks.length > 0 && (
          <button className="link" onClick={clearFinished}>
            {t('queue.clear')}
          </button>
        )}
      </div>
      {tasks.length === 0 && <p className="muted small">{t('queue.empty')}</p>}
      <ul>
        {tasks.map((task) => (
          <li key={task.id}>
            <button
              className={`queue-item${task.id === selectedId ? ' on' : ''}`}
              data-testid="queue-item"
              data-status={task.status}
              onClick={() => {
                select(task.id);
                setView(VIEW_OF_OPERATION[task.operation]);
              }}
            >
              <span className="queue-name" title={task.fileName}>
                {task.fileName}
              </span>
              <span className="queue-meta">
                <span className="muted">{task.mode}</span>
                <span className={`state state-${task.status}`}>
                  {(task.status === 'PROCESSING' || task.status === 'uploading') && <span className="spinner" />}
                  {t(`state.${task.status}` as MessageKey)}
                  <span className="muted" data-testid="progress">
                    {progressOf(task, now)}
                  </span>
                </span>
              </span>
              {task.error && (
                <span className="queue-error" title={task.error.message}>
                  {task.error.code}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
