import { useCallback, useEffect, useState } from 'react';
import { desktopBridge } from '../../api/connection.js';
import { createKey, getUsage, listKeys, revokeKey, type KeyInfo, type UsageInfo } from '../../api/keys.js';
import { useT } from '../../i18n/translate.js';
import { usePrefs } from '../../state/prefs.js';
import { connection, useSession } from '../../state/session.js';
import { describeError } from '../library/start-tasks.js';
import { ErrorNote } from '../viewer/ErrorNote.js';

interface ServerDraft {
  port: string;
  host: string;
  modelDir: string;
  llmBaseUrl: string;
}

/** Keys and balance (through the API), server settings (written to settings.json, used at next start), appearance. */
export function SettingsView() {
  const t = useT();
  const { lang, theme, setLang, setTheme } = usePrefs();
  const baseUrl = useSession((s) => s.baseUrl);
  const setKey = useSession((s) => s.setKey);
  const [keys, setKeys] = useState<KeyInfo[]>([]);
  const [usage, setUsage] = useState<UsageInfo | null>(null);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const [name, setName] = useState('');
  const [balance, setBalance] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const url = new URL(baseUrl);
  const [draft, setDraft] = useState<ServerDraft>({ port: url.port, host: url.hostname, modelDir: '', llmBaseUrl: '' });
  const dataDir = desktopBridge()?.dataDir;

  const refresh = useCallback(async () => {
    try {
      setError(null);
      const [k, u] = await Promise.all([listKeys(connection()), getUsage(connection())]);
      setKeys(k);
      setUsage(u);
    } catch (err) {
      setError(describeError(err));
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  async function create() {
    try {
      const b = balance.trim() === '' ? null : Number(balance);
      const res = await createKey(connection(), name.trim() || 'key', b !== null && Number.isFinite(b) ? b : null);
      setCreated(res.key);
      setName('');
      setBalance('');
      await refresh();
    } catch (err) {
      setError(describeError(err));
    }
  }

  async function revoke(id: string) {
    try {
      await revokeKey(connection(), id);
      await refresh();
    } catch (err) {
      setError(describeError(err));
    }
  }

  const settingsJson = JSON.stringify(
    {
      port: Number(draft.port) || undefined,
      host: draft.host || undefined,
      modelDir: draft.modelDir || null,
      llmBaseUrl: draft.llmBaseUrl || null,
    },
    null,
    2,
  );

  return (
    <div className="settings">
      {error && <ErrorNote code={error.code} message={error.message} />}
      <section>
        <h2>{t('settings.keys')}</h2>
        <p>
          {t('settings.balance')}: <strong data-testid="balance">{usage ? (usage.balance === null ? t('settings.unlimited') : usage.balance) : '…'}</strong>
        </p>
        <table className="keys">
          <tbody>
            {keys.map((k) => (
              <tr key={k.id} className={k.revoked ? 'revoked' : ''}>
                <td>{k.name}</td>
                <td>
                  <code>{k.id}</code>
                </td>
                <td>{k.balance === null ? t('settings.unlimited') : k.balance}</td>
                <td>{k.owner ? t('settings.owner') : k.revoked ? t('settings.revoked') : ''}</td>
                <td>{!k.owner && !k.revoked && <button onClick={() => void revoke(k.id)}>{t('settings.revoke')}</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="row">
          <input placeholder={t('settings.keyName')} value={name} onChange={(e) => setName(e.target.value)} />
          <input placeholder={t('settings.keyBalance')} value={balance} inputMode="numeric" onChange={(e) => setBalance(e.target.value)} />
          <button className="primary" onClick={() => void create()}>
            {t('settings.create')}
          </button>
        </div>
        {created && (
          <p className="new-key">
            {t('settings.newKey')} <code data-testid="new-key">{created}</code>
          </p>
        )}
        {usage && usage.entries.length > 0 && (
          <>
            <h3>{t('settings.usage')}</h3>
            <table className="keys">
              <tbody>
                {usage.entries.slice(0, 20).map((e, i) => (
                  <tr key={i}>
                    <td>{e.at}</td>
                    <td>{e.kind}</td>
                    <td>{e.pages}</td>
                    <td>
                      <code>{e.ref}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
      <section>
        <h2>{t('settings.server')}</h2>
        <p>
          {t('settings.address')}: <code>{baseUrl}</code>
        </p>
        <p>
          {t('settings.dataDir')}: <code>{dataDir ?? '—'}</code>{' '}
          {dataDir && <button onClick={() => void desktopBridge()?.revealInFolder(dataDir)}>{t('settings.reveal')}</button>}
        </p>
        <div className="form-grid">
          <label>
            {t('settings.port')}
            <input value={draft.port} inputMode="numeric" onChange={(e) => setDraft({ ...draft, port: e.target.value })} />
          </label>
          <label>
            {t('settings.bind')}
            <input value={draft.host} onChange={(e) => setDraft({ ...draft, host: e.target.value })} />
          </label>
          <label>
            {t('settings.modelDir')}
            <input value={draft.modelDir} onChange={(e) => setDraft({ ...draft, modelDir: e.target.value })} />
          </label>
          <label>
            {t('settings.llmUrl')}
            <input value={draft.llmBaseUrl} placeholder="http://127.0.0.1:11434/v1" onChange={(e) => setDraft({ ...draft, llmBaseUrl: e.target.value })} />
          </label>
        </div>
        <p className="muted">{t('settings.apply')}</p>
        <pre className="json">{settingsJson}</pre>
      </section>
      <section>
        <h2>{t('settings.appearance')}</h2>
        <div className="row">
          <span>{t('settings.theme')}</span>
          <div className="segmented">
            <button className={theme === 'light' ? 'on' : ''} onClick={() => setTheme('light')}>
              {t('settings.light')}
            </button>
            <button className={theme === 'dark' ? 'on' : ''} onClick={() => setTheme('dark')} data-testid="theme-dark">
              {t('settings.dark')}
            </button>
          </div>
          <span>{t('settings.language')}</span>
          <div className="segmented">
            <button className={lang === 'en' ? 'on' : ''} onClick={() => setLang('en')}>
              English
            </button>
            <button className={lang === 'zh' ? 'on' : ''} onClick={() => setLang('zh')} data-testid="lang-zh">
              中文
            </button>
          </div>
        </div>
        {!desktopBridge() && (
          <button onClick={() => setKey(null)} className="danger">
            {t('settings.signOut')}
          </button>
        )}
      </section>
    </div>
  );
}
