import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../../engine/vision/read-document.js';
import { BAD_INPUTS } from '../../fixtures/make-bad-inputs.js';
import { applyMutation, readDocumentProperty, runTarget } from './fuzz-targets.mjs';

const generated = (name: string) => readFileSync(join(import.meta.dirname, '../../fixtures/generated', name));
const good = generated(BAD_INPUTS.goodPdf);
// The plain base only: mutated xref streams (the object-stream base) can make pdf.js leave a stray rejection,
// which vitest reports as an error of the run; bench/fuzz-run.mjs fuzzes both bases and counts those.
const target = readDocumentProperty(readDocument, [good], 10_000);
afterAll(() => target.cleanup());

describe('readDocument on mutated PDFs (fast-check)', () => {
  it('the mutations really change the file', () => {
    expect(applyMutation(good, { kind: 'cut', at: 100 })).toHaveLength(100);
    const flipped = applyMutation(good, { kind: 'flip', at: [[5, 0]] });
    expect(flipped[5]).toBe(good[5]! ^ 1);
    const swapped = applyMutation(good, { kind: 'token', from: 'endobj', to: 'xx', nth: 0 });
    expect(swapped.length).toBe(good.length - 4);
  });

  it('resolves with pages or throws DocError INVALID_DOCUMENT, never hangs or throws anything else', async () => {
    const r = await runTarget('readDocument(pdf)', target.property, { numRuns: 40, interruptAfterTimeLimit: 30_000 });
    expect(r.error, `seed ${r.seed}: ${r.counterexample}`).toBe(null);
    expect(r.failed).toBe(false);
    expect(r.runs).toBeGreaterThanOrEqual(20);
  }, 40_000);
});
