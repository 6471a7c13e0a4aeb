import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The one data folder (ARCHITECTURE.md): `<appData>/DocAI`, DOCAI_HOME overriding it. Same rule as the engine's
 * defaultDataDir, restated so the shell does not load engine code before choosing Electron's userData.
 */
export function desktopDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.DOCAI_HOME) return env.DOCAI_HOME;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'DocAI');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'DocAI');
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'DocAI');
}
