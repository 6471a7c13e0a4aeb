import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentPages } from '../../../engine/core/page.js';

export const GENERATED = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/generated');

/** The DocumentPages and the drawn values of a fixture made by tests/fixtures/make-extract.ts. */
export function fixture(name: string): { doc: DocumentPages; truth: Record<string, string> } {
  return {
    doc: JSON.parse(readFileSync(join(GENERATED, `${name}.layout.json`), 'utf8')) as DocumentPages,
    // Page text is NFKC (full-width punctuation becomes ASCII), so the drawn values are compared in that form.
    truth: Object.fromEntries(
      Object.entries(JSON.parse(readFileSync(join(GENERATED, `${name}.truth.json`), 'utf8')) as Record<string, string>).map(([k, v]) => [k, v.normalize('NFKC')]),
    ),
  };
}
