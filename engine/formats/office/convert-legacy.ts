import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, copyFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, delimiter } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentFormat } from '../../core/page.js';
import { DocError } from '../../core/errors.js';

/** The OOXML format LibreOffice converts each legacy binary format into. */
const TARGET: Partial<Record<DocumentFormat, 'docx' | 'xlsx' | 'pptx'>> = { doc: 'docx', xls: 'xlsx', ppt: 'pptx' };
const CONVERT_TIMEOUT_MS = 120_000;
const INSTALL_HINT = 'apt-get install -y libreoffice-nogui';

/** LibreOffice's launcher: DOCAI_SOFFICE (a path, or `none` to switch legacy conversion off), else PATH and the usual places. */
export function findSoffice(): string | null {
  const fromEnv = process.env.DOCAI_SOFFICE;
  if (fromEnv === 'none') return null;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const dirs = (process.env.PATH ?? '').split(delimiter).concat(['/usr/bin', '/usr/local/bin', '/opt/libreoffice/program', '/Applications/LibreOffice.app/Contents/MacOS']);
  for (const d of dirs) {
    for (const name of ['soffice', 'libreoffice', 'soffice.exe']) {
      const p = join(d, name);
      if (d && existsSync(p)) return p;
    }
  }
  return null;
}

/**
 * Convert a legacy Office file (.doc .dot .xls .xlt .ppt .pot .pps) to OOXML with LibreOffice,
 * headless, in a private temporary profile (so that parallel conversions never share one), with a
 * timeout. Calls `use` with the converted file's path and cleans up afterwards.
 */
export async function withConvertedLegacy<T>(path: string, format: DocumentFormat, use: (converted: string, target: 'docx' | 'xlsx' | 'pptx') => Promise<T>): Promise<T> {
  const target = TARGET[format];
  if (!target) throw new DocError('INVALID_DOCUMENT', `${format} is not a legacy Office format`);
  const soffice = findSoffice();
  if (!soffice) {
    throw new DocError('INVALID_DOCUMENT', `legacy .${format} files need LibreOffice, which is not installed on this machine (install it with: ${INSTALL_HINT})`);
  }
  const work = await mkdtemp(join(tmpdir(), 'docai-soffice-'));
  try {
    // A plain ASCII name: LibreOffice picks the filter from content, and odd names upset it.
    const input = join(work, `input.${format}`);
    await copyFile(path, input);
    const outDir = join(work, 'out');
    const profile = pathToFileURL(join(work, 'profile')).href;
    await run(soffice, ['--headless', '--norestore', '--nologo', '--nolockcheck', `-env:UserInstallation=${profile}`, '--convert-to', target, '--outdir', outDir, input]);
    const produced = existsSync(outDir) ? (await readdir(outDir)).filter((f) => f.endsWith(`.${target}`)) : [];
    if (produced.length === 0) throw new DocError('INVALID_DOCUMENT', `LibreOffice could not convert the .${format} file (damaged or not really a .${format})`);
    return await use(join(outDir, produced[0]!), target);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // svp: LibreOffice's headless backend, so that no display or session bus is looked for.
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: process.platform !== 'win32', env: { ...process.env, SAL_USE_VCLPLUGIN: 'svp' } });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    const timer = setTimeout(() => {
      // the whole process group: soffice forks oosplash/soffice.bin
      try {
        if (child.pid) process.kill(process.platform === 'win32' ? child.pid : -child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new DocError('INVALID_DOCUMENT', `LibreOffice took longer than ${CONVERT_TIMEOUT_MS / 1000} s to convert the file`));
    }, CONVERT_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new DocError('INVALID_DOCUMENT', `LibreOffice could not be started (${err.message}); install it with: ${INSTALL_HINT}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new DocError('INVALID_DOCUMENT', `LibreOffice failed to convert the file (exit ${code}${stderr ? `: ${stderr.trim().slice(0, 200)}` : ''})`));
    });
  });
}
