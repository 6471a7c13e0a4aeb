import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import type { Lang } from '../i18n/translate.js';

export type Theme = 'light' | 'dark';

interface PrefsState {
  lang: Lang;
  theme: Theme;
  setLang(lang: Lang): void;
  setTheme(theme: Theme): void;
}

const initialLang: Lang = typeof navigator !== 'undefined' && navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
const initialTheme: Theme =
  typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';

export const usePrefs = create<PrefsState>()(
  persist(
    (set) => ({
      lang: initialLang,
      theme: initialTheme,
      setLang: (lang) => set({ lang }),
      setTheme: (theme) => set({ theme }),
    }),
    { name: 'docai.prefs' },
  ),
);
