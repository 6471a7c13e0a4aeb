import { useEffect, useState } from 'react';
import type { MessageKey } from '../../i18n/en.js';
import { useT } from '../../i18n/translate.js';
import { useWorkspace } from '../../state/workspace.js';
import { collectDroppedFiles } from './collect-dropped-files.js';
import { startTasks } from './start-tasks.js';

/** Files and folders dropped anywhere on the window go to the queue with the current operation. */
export function WindowDrop() {
  const t = useT();
  const op = useWorkspace((s) => s.choice.operation);
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const hasFiles = (e: DragEvent) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth++;
      setOver(true);
    };
    const leave = () => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const overHandler = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const drop = (e: DragEvent) => {
      if (!e.dataTransfer) return;
      e.preventDefault();
      depth = 0;
      setOver(false);
      void collectDroppedFiles(e.dataTransfer).then((files) => files.length && startTasks(files));
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', overHandler);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', overHandler);
      window.removeEventListener('drop', drop);
    };
  }, []);
  if (!over) return null;
  return (
    <div className="drop-overlay">
      <div>{t('drop.overlay', { op: t(`op.${op}` as MessageKey) })}</div>
    </div>
  );
}
