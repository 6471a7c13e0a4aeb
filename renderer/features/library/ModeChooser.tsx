import type { Operation } from '../../api/types.js';
import type { MessageKey } from '../../i18n/en.js';
import { useT } from '../../i18n/translate.js';
import { useWorkspace } from '../../state/workspace.js';

const MODES: Record<Operation, string[]> = {
  parse: ['lite', 'pro', 'premium'],
  extract: ['docai-extract', 'docai-extract-flash', 'bl-extract', 'occ-extract', 'emr-extract'],
  mask: ['emr-mask'],
};
const MODE_FIELD = { parse: 'parseMode', extract: 'extractMode', mask: 'maskMode' } as const;

/** What happens to dropped files: operation, mode, and the extraction schema / prompt or mask fields. */
export function ModeChooser() {
  const t = useT();
  const choice = useWorkspace((s) => s.choice);
  const setChoice = useWorkspace((s) => s.setChoice);
  const modeField = MODE_FIELD[choice.operation];
  return (
    <div className="chooser">
      <div className="segmented" role="radiogroup" aria-label={t('op.label')}>
        {(['parse', 'extract', 'mask'] as const).map((op) => (
          <button key={op} role="radio" aria-checked={choice.operation === op} className={choice.operation === op ? 'on' : ''} onClick={() => setChoice({ operation: op })} data-testid={`op-${op}`}>
            {t(`op.${op}` as MessageKey)}
          </button>
        ))}
      </div>
      <label className="field-inline">
        {t('mode.label')}
        <select value={choice[modeField]} onChange={(e) => setChoice({ [modeField]: e.target.value })} data-testid="mode">
          {MODES[choice.operation].map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      {choice.operation === 'extract' && (choice.extractMode === 'docai-extract' || choice.extractMode === 'docai-extract-flash') && (
        <>
          <label className="field-block">
            {t('extract.schema')}
            <textarea rows={3} value={choice.schemaFields} onChange={(e) => setChoice({ schemaFields: e.target.value })} data-testid="schema-fields" />
          </label>
          {choice.extractMode === 'docai-extract' && (
            <>
              <label className="field-block">
                {t('extract.prompt')}
                <textarea rows={2} value={choice.prompt} onChange={(e) => setChoice({ prompt: e.target.value })} />
              </label>
              <p className="muted small">{t('extract.openHint')}</p>
            </>
          )}
        </>
      )}
      {choice.operation === 'mask' && (
        <label className="field-block">
          {t('mask.fields')}
          <textarea rows={3} value={choice.maskFields} onChange={(e) => setChoice({ maskFields: e.target.value })} />
        </label>
      )}
    </div>
  );
}
