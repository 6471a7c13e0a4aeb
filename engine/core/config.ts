import { homedir } from 'node:os';
import { join } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';

/** Every setting of the engine, with its default. Read from `<data>/settings.json`, then env overrides. */
export interface Settings {
  dataDir: string;
  host: string;
  port: number;
  /** signed link lifetime in seconds */
  linkTtlSeconds: number;
  /** public base for {file_url} links; default this server's own address */
  publicFileBase: string | null;
  /** per-task timeout: base + per page, seconds */
  taskTimeoutBaseSeconds: number;
  taskTimeoutPerPageSeconds: number;
  retentionDays: number;
  /** v2 downloads to loopback/private addresses refused unless true */
  allowPrivateUrls: boolean;
  /** chat requests a minute per key */
  chatRateLimitPerMinute: number;
  /** worker processes for untrusted CPU work; default: cores */
  workers: number;
  /** worker heap limit in MB */
  workerHeapMb: number;
  /** extra model folder (ONNX layout model, GGUF), optional */
  modelDir: string | null;
  /** OpenAI-compatible upstream for the optional language model */
  llmBaseUrl: string | null;
  llmModel: string | null;
  llmApiKey: string | null;
  /** CORS allow-list (origins); empty = same-origin only */
  corsOrigins: string[];
}

export function defaultDataDir(): string {
  if (process.env.DOCAI_HOME) return process.env.DOCAI_HOME;
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'DocAI');
    case 'win32':
      return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'DocAI');
    default:
      return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'DocAI');
  }
}

export const DEFAULT_SETTINGS: Omit<Settings, 'dataDir'> = {
  host: '127.0.0.1',
  port: 8787,
  linkTtlSeconds: 3600,
  publicFileBase: null,
  taskTimeoutBaseSeconds: 60,
  taskTimeoutPerPageSeconds: 10,
  retentionDays: 30,
  allowPrivateUrls: false,
  chatRateLimitPerMinute: 60,
  workers: 2,
  workerHeapMb: 2048,
  modelDir: null,
  llmBaseUrl: null,
  llmModel: null,
  llmApiKey: null,
  corsOrigins: [],
};

function envNumber(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** Load settings: defaults < settings.json in the data folder < environment < explicit overrides. */
export function loadSettings(overrides: Partial<Settings> = {}): Settings {
  const dataDir = overrides.dataDir ?? defaultDataDir();
  let fromFile: Partial<Settings> = {};
  const file = join(dataDir, 'settings.json');
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8')) as Partial<Settings>;
    } catch {
      fromFile = {};
    }
  }
  const env: Partial<Settings> = {};
  const port = envNumber('DOCAI_PORT');
  if (port !== undefined) env.port = port;
  if (process.env.DOCAI_HOST) env.host = process.env.DOCAI_HOST;
  if (process.env.DOCAI_ALLOW_PRIVATE_URLS) env.allowPrivateUrls = process.env.DOCAI_ALLOW_PRIVATE_URLS === '1';
  const workers = envNumber('DOCAI_WORKERS');
  if (workers !== undefined) env.workers = workers;
  const linkTtl = envNumber('DOCAI_LINK_TTL');
  if (linkTtl !== undefined) env.linkTtlSeconds = linkTtl;
  const tb = envNumber('DOCAI_TASK_TIMEOUT');
  if (tb !== undefined) env.taskTimeoutBaseSeconds = tb;
  const rate = envNumber('DOCAI_CHAT_RATE_LIMIT');
  if (rate !== undefined) env.chatRateLimitPerMinute = rate;
  if (process.env.DOCAI_MODEL_DIR) env.modelDir = process.env.DOCAI_MODEL_DIR;
  if (process.env.DOCAI_LLM_URL) env.llmBaseUrl = process.env.DOCAI_LLM_URL;
  if (process.env.DOCAI_LLM_MODEL) env.llmModel = process.env.DOCAI_LLM_MODEL;
  if (process.env.DOCAI_LLM_API_KEY) env.llmApiKey = process.env.DOCAI_LLM_API_KEY;
  if (process.env.DOCAI_PUBLIC_FILE_BASE) env.publicFileBase = process.env.DOCAI_PUBLIC_FILE_BASE;
  if (process.env.DOCAI_CORS_ORIGINS) env.corsOrigins = process.env.DOCAI_CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean);
  return { ...DEFAULT_SETTINGS, ...fromFile, ...env, ...overrides, dataDir };
}
