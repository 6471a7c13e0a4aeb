import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DocError } from '../../../core/errors.js';
import { LAYOUT_SETTINGS_FILE } from './model-folder.js';
import { parseNamesLiteral } from './onnx-metadata.js';

/**
 * What the files beside a layout model say: PaddleX / PaddleDetection `inference.yml` (or `infer_cfg.yml`) gives the
 * preprocessing and `label_list`; a YOLO export's class names come from `labels.json` / any `*.json`, a data yaml's
 * `names`, or `labels.txt` (one per line).
 */

/** Paddle preprocessing, in the order the model was trained with (Resize, NormalizeImage, Permute). */
export interface PaddlePreprocess {
  /** Resize target [height, width]; null when the yml has no Resize (the image goes in at its own size). */
  targetSize: [number, number] | null;
  keepRatio: boolean;
  mean: [number, number, number];
  std: [number, number, number];
  /** Divide by 255 first. */
  isScale: boolean;
  /** 'mean_std' subtracts mean and divides by std; 'none' only scales. */
  normType: 'mean_std' | 'none';
}

export interface LayoutSidecar {
  /** The file the facts came from (for messages). */
  file: string | null;
  labels: string[] | null;
  paddle: PaddlePreprocess | null;
  /** Input size a YOLO yaml states (imgsz), [height, width]. */
  imgsz: [number, number] | null;
}

function namesFrom(value: unknown): string[] | null {
  if (Array.isArray(value)) return value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  if (typeof value === 'string') return parseNamesLiteral(value);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([k, v]) => /^\d+$/.test(k) && typeof v === 'string');
    if (entries.length === 0) return null;
    const out: string[] = [];
    for (const [k, v] of entries) out[Number(k)] = v as string;
    for (let i = 0; i < out.length; i++) out[i] ??= `class_${i}`;
    return out;
  }
  return null;
}

function triple(v: unknown, fallback: [number, number, number]): [number, number, number] {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number') ? (v as [number, number, number]) : fallback;
}

function sizeOf(v: unknown): [number, number] | null {
  if (typeof v === 'number' && v > 0) return [v, v];
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number' && x > 0)) return [v[0] as number, v[1] as number];
  return null;
}

/** The Preprocess list of a Paddle inference yml; unknown steps are refused by name rather than skipped. */
export function paddlePreprocess(steps: unknown, file: string): PaddlePreprocess {
  if (!Array.isArray(steps)) throw new DocError('INVALID_DOCUMENT', `${file}: "Preprocess" must be a list of steps (Resize, NormalizeImage, Permute)`);
  const p: PaddlePreprocess = { targetSize: null, keepRatio: false, mean: [0, 0, 0], std: [1, 1, 1], isScale: true, normType: 'none' };
  let normalised = false;
  for (const raw of steps) {
    const step = (raw ?? {}) as Record<string, unknown>;
    switch (step.type) {
      case 'Resize': {
        const size = sizeOf(step.target_size);
        if (!size) throw new DocError('INVALID_DOCUMENT', `${file}: Resize needs target_size [height, width]`);
        p.targetSize = size;
        p.keepRatio = step.keep_ratio === true;
        break;
      }
      case 'NormalizeImage':
        normalised = true;
        p.mean = triple(step.mean, [0.485, 0.456, 0.406]);
        p.std = triple(step.std, [0.229, 0.224, 0.225]);
        p.isScale = step.is_scale !== false;
        p.normType = step.norm_type === 'none' ? 'none' : 'mean_std';
        break;
      case 'Permute':
      case 'PadStride':
        // Permute (HWC -> CHW) is how the tensor is laid out anyway; PadStride pads to a multiple of the
        // stride, which a fixed target size already is.
        break;
      default:
        throw new DocError('INVALID_DOCUMENT', `${file}: preprocessing step ${JSON.stringify(step.type)} is not supported (supported: Resize, NormalizeImage, Permute, PadStride)`);
    }
  }
  if (!normalised) p.normType = 'none';
  return p;
}

function readYaml(path: string): Record<string, unknown> {
  try {
    const v = parseYaml(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `${path} is not valid YAML (${(err as Error).message})`);
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new DocError('INVALID_DOCUMENT', `${path} is not valid JSON (${(err as Error).message})`);
  }
}

/** The sidecar facts in `dir`: the Paddle yml first, then label files. */
export function readLayoutSidecar(dir: string): LayoutSidecar {
  const files = readdirSync(dir).sort();
  const out: LayoutSidecar = { file: null, labels: null, paddle: null, imgsz: null };
  const ymls = files.filter((f) => /\.ya?ml$/i.test(f)).sort((a, b) => rank(a) - rank(b));
  for (const f of ymls) {
    const path = join(dir, f);
    const y = readYaml(path);
    if (y.Preprocess !== undefined && !out.paddle) {
      out.paddle = paddlePreprocess(y.Preprocess, path);
      out.labels ??= namesFrom(y.label_list);
      out.file ??= path;
    }
    if (!out.labels) {
      const names = namesFrom(y.names ?? y.label_list);
      if (names) [out.labels, out.file] = [names, out.file ?? path];
    }
    out.imgsz ??= sizeOf(y.imgsz);
  }
  if (!out.labels || !out.paddle) {
    // Small JSON files only: a Paddle 3 model program is also called inference.json and can be megabytes.
    const jsons = files.filter((n) => /\.json$/i.test(n) && n !== LAYOUT_SETTINGS_FILE && statSync(join(dir, n)).size < 1_000_000);
    for (const f of jsons.sort((a, b) => rank(a) - rank(b))) {
      const path = join(dir, f);
      const j = readJson(path) as unknown;
      const obj = (j && typeof j === 'object' && !Array.isArray(j) ? j : {}) as Record<string, unknown>;
      // The same settings as inference.yml, written as JSON.
      if (obj.Preprocess !== undefined && !out.paddle) {
        out.paddle = paddlePreprocess(obj.Preprocess, path);
        out.file ??= path;
      }
      if (out.labels) continue;
      const names = namesFrom(Array.isArray(j) ? j : (obj.names ?? obj.label_list ?? obj.labels ?? obj.id2label ?? j));
      if (names) [out.labels, out.file] = [names, out.file ?? path];
    }
  }
  if (!out.labels && files.includes('labels.txt')) {
    const path = join(dir, 'labels.txt');
    const names = readFileSync(path, 'utf8').split(/\r?\n/).map((s) => s.trim()).filter(Boolean);
    if (names.length) [out.labels, out.file] = [names, path];
  }
  return out;
}

/** Well-known sidecar names first. */
function rank(name: string): number {
  const n = name.toLowerCase();
  if (n === 'inference.yml' || n === 'inference.yaml' || n === 'labels.json') return 0;
  if (n === 'infer_cfg.yml' || n === 'data.yaml' || n === 'config.json') return 1;
  return 2;
}
