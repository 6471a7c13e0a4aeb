import { readdirSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Fixtures are made by scripts, never downloaded: every `tests/fixtures/make-*.ts` exports
 * `make(outDir)` and writes its files under tests/fixtures/generated/. Scripts skip files already made.
 */
export default async function setup(): Promise<void> {
  const here = dirname(fileURLToPath(import.meta.url));
  const fixturesDir = join(here, 'fixtures');
  const outDir = join(fixturesDir, 'generated');
  mkdirSync(outDir, { recursive: true });
  const scripts = readdirSync(fixturesDir).filter((f) => /^make-.*\.ts$/.test(f)).sort();
  for (const s of scripts) {
    const mod = (await import(pathToFileURL(join(fixturesDir, s)).href)) as { make: (dir: string) => Promise<void> };
    await mod.make(outDir);
  }
}
