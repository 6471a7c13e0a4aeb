/** True when `url` is the app itself: same scheme, host and port as the engine's base URL. */
export function isAppUrl(url: string, baseUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}
