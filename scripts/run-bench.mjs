// npm run bench -- <name> [args]: build the engine, then run bench/<name>.mjs (figures on ../shared/corpus).
// With no name, list the benchmarks.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const [name, ...args] = process.argv.slice(2);
const benches = readdirSync(new URL('../bench/', import.meta.url)).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4));
if (!name || !benches.includes(name)) {
  console.log(`usage: npm run bench -- <name> [args]\n\nbenchmarks:\n${benches.map((b) => `  ${b}`).join('\n')}`);
  process.exit(name ? 2 : 0);
}
const build = spawnSync('npx', ['tsc', '-b'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync(process.execPath, [`bench/${name}.mjs`, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
