import type { DesktopBridge } from '../../electron/desktop-bridge.js';

const KEY_STORAGE = 'docai.apiKey';

declare global {
  interface Window {
    docai?: DesktopBridge;
  }
}

export function desktopBridge(): DesktopBridge | undefined {
  return window.docai;
}

export function apiBaseUrl(): string {
  return desktopBridge()?.baseUrl ?? window.location.origin;
}

/**
 * The key comes from the desktop bridge, else from the `#key=` fragment that `docai serve` prints (taken once,
 * kept in local storage and removed from the address bar), else from local storage. Null: ask the user.
 */
export function takeApiKey(): string | null {
  const bridged = desktopBridge()?.apiKey;
  if (bridged) return bridged;
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const fromFragment = params.get('key');
  if (fromFragment) {
    localStorage.setItem(KEY_STORAGE, fromFragment);
    params.delete('key');
    const rest = params.toString();
    history.replaceState(null, '', window.location.pathname + window.location.search + (rest ? `#${rest}` : ''));
    return fromFragment;
  }
  return localStorage.getItem(KEY_STORAGE);
}

export function storeApiKey(key: string | null): void {
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
}
