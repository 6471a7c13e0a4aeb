import type { Settings } from '../core/config.js';

type TimeoutSettings = Pick<Settings, 'taskTimeoutBaseSeconds' | 'taskTimeoutPerPageSeconds'>;

/** 60 s + 10 s per page (settings). */
export function timeoutForPages(s: TimeoutSettings, pages: number): number {
  return (s.taskTimeoutBaseSeconds + s.taskTimeoutPerPageSeconds * Math.max(1, pages)) * 1000;
}

/**
 * Before a file is read its page count is unknown; estimate it from the size (a scanned page is rarely
 * under 100 KB, a digital one far less, so this overestimates), capped at 500 pages.
 */
export function timeoutBeforeReading(s: TimeoutSettings, sizeBytes: number): number {
  const estimate = Math.min(500, Math.max(1, Math.ceil(sizeBytes / (100 * 1024))));
  return timeoutForPages(s, estimate);
}
