import { en, type MessageKey } from './en.js';
import { zh } from './zh.js';
import { usePrefs } from '../state/prefs.js';

export type Lang = 'en' | 'zh';
const TABLES: Record<Lang, Record<MessageKey, string>> = { en, zh };

export function translate(lang: Lang, key: MessageKey, vars?: Record<string, string | number>): string {
  let s: string = TABLES[lang][key] ?? en[key] ?? key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, String(v));
  return s;
}

/** The translate function for the current interface language. */
export function useT(): (key: MessageKey, vars?: Record<string, string | number>) => string {
  const lang = usePrefs((s) => s.lang);
  return (key, vars) => translate(lang, key, vars);
}

export function defaultLang(): Lang {
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
