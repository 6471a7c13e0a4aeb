// Rebuild better-sqlite3 (the one native module that is not N-API) for Electron's ABI before `electron .`,
// only when the last build was for another ABI. onnxruntime-node, @napi-rs/canvas and @node-rs/jieba are N-API.
// After this, the plain-Node CLI and tests need `npm rebuild better-sqlite3` in the repo root (see README.md here).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const electronPkg = JSON.parse(readFileSync(new URL('node_modules/electron/package.json', import.meta.url), 'utf8'));
const abi = readFileSync(new URL('node_modules/electron/abi_version', import.meta.url), 'utf8').trim();
const stamp = new URL('../node_modules/better-sqlite3/build/.electron-abi', import.meta.url);
if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === abi) process.exit(0);
const bin = process.platform === 'win32' ? 'electron-rebuild.cmd' : 'electron-rebuild';
execFileSync(`${here}node_modules/.bin/${bin}`, ['--version', electronPkg.version, '--module-dir', '..', '--only', 'better-sqlite3', '--force'], { cwd: here, stdio: 'inherit', shell: process.platform === 'win32' });
writeFileSync(stamp, abi);
