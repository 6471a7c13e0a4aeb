import { useEffect } from 'react';
import type { MessageKey } from './i18n/en.js';
import { useT } from './i18n/translate.js';
import { usePrefs } from './state/prefs.js';
import { useSession } from './state/session.js';
import { useWorkspace, type View } from './state/workspace.js';
import { KeyPrompt } from './features/auth/KeyPrompt.js';
import { ChatPane } from './features/chat/ChatPane.js';
import { ExtractView } from './features/extract/ExtractView.js';
import { LibraryView } from './features/library/LibraryView.js';
import { Queue } from './features/library/Queue.js';
import { WindowDrop } from './features/library/WindowDrop.js';
import { MaskView } from './features/mask/MaskView.js';
import { SettingsView } from './features/settings/SettingsView.js';
import { Viewer } from './features/viewer/Viewer.js';

const VIEWS: View[] = ['library', 'viewer', 'extract', 'mask', 'chat', 'settings'];

export function App() {
  const t = useT();
  const theme = usePrefs((s) => s.theme);
  const lang = usePrefs((s) => s.lang);
  const setLang = usePrefs((s) => s.setLang);
  const apiKey = useSession((s) => s.apiKey);
  const refused = useSession((s) => s.keyRefused);
  const view = useWorkspace((s) => s.view);
  const setView = useWorkspace((s) => s.setView);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [theme, lang]);

  if (!apiKey || refused) return <KeyPrompt />;

  return (
    <div className="app" data-testid="workspace">
      <header className="topbar">
        <span className="logo">DocAI</span>
        <nav>
          {VIEWS.map((v) => (
            <button key={v} className={view === v ? 'on' : ''} onClick={() => setView(v)} data-testid={`nav-${v}`}>
              {t(`nav.${v}` as MessageKey)}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        <button className="link" onClick={() => setLang(lang === 'en' ? 'zh' : 'en')} data-testid="lang-toggle">
          {lang === 'en' ? '中文' : 'English'}
        </button>
      </header>
      <div className="body">
        <aside className="sidebar">
          <Queue />
        </aside>
        <main className="main">
          {view === 'library' && <LibraryView />}
          {view === 'viewer' && <Viewer />}
          {view === 'extract' && <ExtractView />}
          {view === 'mask' && <MaskView />}
          {view === 'chat' && <ChatPane />}
          {view === 'settings' && <SettingsView />}
        </main>
      </div>
      <WindowDrop />
    </div>
  );
}
