import type { MessageKey } from '../../i18n/en.js';
import { useT } from '../../i18n/translate.js';
import { VIEW_OF_OPERATION, useWorkspace } from '../../state/workspace.js';

/** Every task of this session with its state; selecting one opens its view. */
export function Queue() {
  const t = useT();
  const tasks = useWorkspace((s) => s.tasks);
  const selectedId = useWorkspace((s) => s.selectedId);
  const select = useWorkspace((s) => s.select);
  const setView = useWorkspace((s) => s.setView);
  const clearFinished = useWorkspace((s) => s.clearFinished);
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
