import type { MessageKey } from '../../i18n/en.js';
import { useT } from '../../i18n/translate.js';

/** An error in words, with its err_code. */
export function ErrorNote({ code, message }: { code: string; message?: string }) {
  const t = useT();
  const known = `error.${code}` as MessageKey;
  const words = t(known) === known ? t('error.generic') : t(known);
  return (
    <div className="error-note" role="alert" data-testid="error">
      <strong>{words}</strong> <code>{code}</code>
      {message ? <div className="error-detail">{message}</div> : null}
    </div>
  );
}
