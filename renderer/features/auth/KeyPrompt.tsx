import { useState } from 'react';
import { useT } from '../../i18n/translate.js';
import { useSession } from '../../state/session.js';

/** Asks for the API key when the workspace has none (or the server refused the one it had). */
export function KeyPrompt() {
  const t = useT();
  const baseUrl = useSession((s) => s.baseUrl);
  const refused = useSession((s) => s.keyRefused);
  const setKey = useSession((s) => s.setKey);
  const [value, setValue] = useState('');
  const [checking, setChecking] = useState(false);
  const [invalid, setInvalid] = useState(refused);

  async function submit() {
    const key = value.trim();
    if (!key) return;
    setChecking(true);
    try {
      const res = await fetch(`${baseUrl}/v1/models`, { headers: { Authorization: `Bearer ${key}` } });
      if (res.status === 401) setInvalid(true);
      else setKey(key);
    } catch {
      setKey(key);
    } finally {
      setChecking(false);
    }
  }

  return (
    <div className="key-prompt" data-testid="key-prompt">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h1>{t('key.title')}</h1>
        <p>{t('key.body')}</p>
        <input type="password" autoFocus value={value} onChange={(e) => setValue(e.target.value)} data-testid="key-input" autoComplete="off" />
        {invalid && <p className="error-note">{t('key.invalid')}</p>}
        <button className="primary" type="submit" disabled={checking || !value.trim()}>
          {t('key.submit')}
        </button>
      </form>
    </div>
  );
}
