import { describe, expect, it } from 'vitest';
import { startOcrStageClock, stopOcrStageClock, timeStage, timeStageAsync } from '../../../../engine/vision/ocr/ocr-stage-clock.js';

function spin(ms: number): number {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x++;
  return x;
}

describe('OCR stage clock', () => {
  it('charges wall and CPU time to the named stages while started, and nothing once stopped', async () => {
    expect(timeStage('idle', () => 7)).toBe(7);
    startOcrStageClock();
    timeStage('busy', () => spin(30));
    timeStage('busy', () => spin(30));
    expect(await timeStageAsync('wait', () => new Promise((r) => setTimeout(() => r('done'), 40)))).toBe('done');
    const t = stopOcrStageClock();
    expect(Object.keys(t).sort()).toEqual(['busy', 'wait']);
    expect(t.busy!.calls).toBe(2);
    expect(t.busy!.wallMs).toBeGreaterThanOrEqual(59);
    // A busy loop burns CPU (process-wide CPU time, so only a lower bound holds when other threads run).
    expect(t.busy!.cpuMs).toBeGreaterThan(20);
    expect(t.wait!.wallMs).toBeGreaterThanOrEqual(35);
    expect(t.wait!.calls).toBe(1);
    timeStage('after', () => spin(1));
    expect(stopOcrStageClock()).toEqual({});
  });
});
