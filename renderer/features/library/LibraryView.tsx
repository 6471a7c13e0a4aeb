import { useRef } from 'react';
import { useT } from '../../i18n/translate.js';
import { ModeChooser } from './ModeChooser.js';
import { startTasks } from './start-tasks.js';
import { ACCEPTED_EXT } from './file-kind.js';

const ACCEPT = [...ACCEPTED_EXT].map((e) => `.${e}`).join(',');

/** Choose what to do, then drop files or folders (anywhere on the window) or pick them. */
export function LibraryView() {
  const t = useT();
  const inputRef = useRef<HTMLInputElement>(null);
  return (
    <div className="library">
      <ModeChooser />
      <div
        className="dropzone"
        data-testid="dropzone"
        role="button"
        tabIndex={0}
        onClick={() => inputRef.current?.click()}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && inputRef.current?.click()}
      >
        <div className="dropzone-title">{t('drop.title')}</div>
        <div className="muted">{t('drop.hint')}</div>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          data-testid="file-input"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            if (files.length) startTasks(files);
          }}
        />
      </div>
    </div>
  );
}
