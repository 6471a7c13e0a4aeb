/**
 * Deterministic fault injection for tests (ARCHITECTURE: hardening). `DOCAI_FAULT=<point>:<action>[,...]`
 * where action is `ENOSPC` (throw a disk-full error) or `exit` (the process dies on the spot).
 * Points: blob-write (any blob), mask-output (a masked copy written, not yet stored), result-write (a file's
 * result row), task-finish (inside the final state + debit transaction). Nothing happens when the variable is unset.
 */
export function checkFault(point: string): void {
  const spec = process.env.DOCAI_FAULT;
  if (!spec) return;
  for (const item of spec.split(',')) {
    const [p, action] = item.split(':');
    if (p !== point) continue;
    if (action === 'exit') process.kill(process.pid, 'SIGKILL');
    if (action === 'ENOSPC') {
      const err = new Error(`ENOSPC: no space left on device (fault point ${point})`) as NodeJS.ErrnoException;
      err.code = 'ENOSPC';
      throw err;
    }
  }
}
