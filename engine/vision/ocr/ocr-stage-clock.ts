/**
 * Per-stage wall and CPU time of OCR, for the speed bench. Off unless a caller starts it; when off a stage costs
 * one null check. CPU time is the whole process's (every intra-op thread included), so it is the fair figure on
 * a shared machine where wall time also counts waiting for a core.
 */

export interface StageTime {
  wallMs: number;
  cpuMs: number;
  calls: number;
}

let totals: Map<string, StageTime> | null = null;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Starts (or restarts) collecting stage times. */
export function startOcrStageClock(): void {
  totals = new Map();
}

/** Stage times collected since the start, and collection stops. */
export function stopOcrStageClock(): Record<string, StageTime> {
  const out = Object.fromEntries(totals ?? []);
  totals = null;
  return out;
}

function add(stage: string, wall0: number, cpu0: number): void {
  if (!totals) return;
  const t = totals.get(stage) ?? { wallMs: 0, cpuMs: 0, calls: 0 };
  t.wallMs += performance.now() - wall0;
  t.cpuMs += cpuMs() - cpu0;
  t.calls++;
  totals.set(stage, t);
}

/** Runs `fn` and charges its time to `stage` (stages should not nest: nested time is counted twice). */
export function timeStage<T>(stage: string, fn: () => T): T {
  if (!totals) return fn();
  const w = performance.now();
  const c = cpuMs();
  try {
    return fn();
  } finally {
    add(stage, w, c);
  }
}

export async function timeStageAsync<T>(stage: string, fn: () => Promise<T>): Promise<T> {
  if (!totals) return fn();
  const w = performance.now();
  const c = cpuMs();
  try {
    return await fn();
  } finally {
    add(stage, w, c);
  }
}
