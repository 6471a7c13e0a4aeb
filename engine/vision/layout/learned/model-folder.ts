import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DocError } from '../../../core/errors.js';

/**
 * Where a learned layout model lives: `<model folder>/layout/` (the model folder is settings.modelDir, handed to
 * workers as DOCAI_MODEL_DIR). The folder holds one exported model as it comes, either directly or as the one
 * sub-folder an export produces (`layout/PP-DocLayout-L/inference.onnx` + `inference.yml`). An optional
 * `docai-layout.json` there picks the file and how parse uses it: `{ "model": "x.onnx", "mode": "replace" | "vote",
 * "scoreThreshold": 0.5 }`. DOCAI_LAYOUT_MODE=replace|vote|off overrides the mode (off: the model is not used).
 */

export type LearnedLayoutMode = 'replace' | 'vote';

export interface LayoutModelFiles {
  /** The folder holding the model file and its sidecars. */
  dir: string;
  onnx: string;
  mode: LearnedLayoutMode;
  /** Detections below this score are dropped (null: the format's default). */
  scoreThreshold: number | null;
  /** Identity of the model and its sidecars as they are now (paths, sizes, times): a changed file loads again. */
  fingerprint: string;
}

export const LAYOUT_SUBFOLDER = 'layout';
export const LAYOUT_SETTINGS_FILE = 'docai-layout.json';

interface FolderSettings {
  model?: string;
  mode?: LearnedLayoutMode;
  scoreThreshold?: number;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function onnxFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.onnx') && statSync(join(dir, f)).isFile())
    .sort();
}

function readSettings(path: string): FolderSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `layout model settings ${path} are not valid JSON (${(err as Error).message}); expected {"model": "file.onnx", "mode": "replace"|"vote", "scoreThreshold": 0.5}`);
  }
  const s = (raw ?? {}) as Record<string, unknown>;
  const out: FolderSettings = {};
  if (s.model !== undefined) {
    if (typeof s.model !== 'string' || !s.model) throw new DocError('INVALID_DOCUMENT', `layout model settings ${path}: "model" must name an .onnx file`);
    out.model = s.model;
  }
  if (s.mode !== undefined) {
    if (s.mode !== 'replace' && s.mode !== 'vote') throw new DocError('INVALID_DOCUMENT', `layout model settings ${path}: "mode" must be "replace" or "vote", not ${JSON.stringify(s.mode)}`);
    out.mode = s.mode;
  }
  if (s.scoreThreshold !== undefined) {
    if (typeof s.scoreThreshold !== 'number' || !(s.scoreThreshold >= 0 && s.scoreThreshold <= 1)) {
      throw new DocError('INVALID_DOCUMENT', `layout model settings ${path}: "scoreThreshold" must be a number from 0 to 1`);
    }
    out.scoreThreshold = s.scoreThreshold;
  }
  return out;
}

/**
 * The layout model the user placed, or null when there is none (no model folder, or no `layout` folder in it):
 * then nothing is loaded and parse runs the rules alone. A folder that is there but unusable is a DocError.
 */
export function findLayoutModel(modelDir: string | null | undefined, env: NodeJS.ProcessEnv = process.env): LayoutModelFiles | null {
  const root = modelDir ?? env.DOCAI_MODEL_DIR ?? null;
  if (!root) return null;
  const envMode = env.DOCAI_LAYOUT_MODE?.trim().toLowerCase();
  if (envMode === 'off') return null;
  const top = join(root, LAYOUT_SUBFOLDER);
  if (!isDir(top)) return null;
  let dir = top;
  let settings = existsSync(join(top, LAYOUT_SETTINGS_FILE)) ? readSettings(join(top, LAYOUT_SETTINGS_FILE)) : {};
  if (!settings.model && onnxFiles(top).length === 0) {
    const subs = readdirSync(top).filter((f) => isDir(join(top, f)) && onnxFiles(join(top, f)).length > 0);
    if (subs.length === 0) throw new DocError('INVALID_DOCUMENT', `the layout model folder ${top} holds no .onnx file; expected an exported model (e.g. inference.onnx with inference.yml beside it)`);
    if (subs.length > 1) throw new DocError('INVALID_DOCUMENT', `the layout model folder ${top} holds several models (${subs.join(', ')}); keep one, or name it in ${LAYOUT_SETTINGS_FILE} ("model": "${subs[0]}/inference.onnx")`);
    dir = join(top, subs[0]!);
    if (existsSync(join(dir, LAYOUT_SETTINGS_FILE))) settings = { ...readSettings(join(dir, LAYOUT_SETTINGS_FILE)), ...settings };
  }
  let onnx: string;
  if (settings.model) {
    onnx = join(top, settings.model);
    if (!existsSync(onnx)) throw new DocError('INVALID_DOCUMENT', `the layout model ${onnx} named in ${join(top, LAYOUT_SETTINGS_FILE)} does not exist`);
    dir = dirname(onnx);
  } else {
    const files = onnxFiles(dir);
    if (files.includes('inference.onnx')) onnx = join(dir, 'inference.onnx');
    else if (files.length === 1) onnx = join(dir, files[0]!);
    else throw new DocError('INVALID_DOCUMENT', `the layout model folder ${dir} holds several .onnx files (${files.join(', ')}); name one in ${LAYOUT_SETTINGS_FILE} ("model": "${files[0]}")`);
  }
  const mode: LearnedLayoutMode = envMode === 'vote' || envMode === 'replace' ? envMode : (settings.mode ?? 'replace');
  // The model file and its sidecars as they are now: editing inference.yml or labels.json loads the model again.
  const stamp = (p: string): string => {
    const st = statSync(p);
    return `${p}\u0000${st.size}\u0000${st.mtimeMs}`;
  };
  const sidecars = readdirSync(dir).filter((f) => /\.(ya?ml|json|txt)$/i.test(f)).sort();
  const fingerprint = [stamp(onnx), ...sidecars.map((f) => stamp(join(dir, f)))].join('\u0001');
  return { dir, onnx, mode, scoreThreshold: settings.scoreThreshold ?? null, fingerprint };
}
