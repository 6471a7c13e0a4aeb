import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One server per data folder: two servers on the same SQLite queue would both resume and run the same
 * tasks. `<dataDir>/server.lock` holds the pid of the live server; a lock whose process is gone (kill -9)
 * is taken over.
 */
export class DataDirLock {
  private held = false;
  readonly file: string;
  constructor(dataDir: string) {
    this.file = join(dataDir, 'server.lock');
  }

  /** Returns null when acquired, else the pid of the server holding the folder. */
  acquire(): number | null {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(this.file, String(process.pid), { flag: 'wx', mode: 0o600 });
        this.held = true;
        return null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const pid = Number(readFileSync(this.file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) return pid;
      rmSync(this.file, { force: true });
    }
    return null;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    rmSync(this.file, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
