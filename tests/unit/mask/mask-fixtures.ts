import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentPages, Page } from '../../../engine/core/page.js';
import type { MaskFixtureTruth } from '../../fixtures/make-mask.js';

export const GENERATED = join(__dirname, '..', '..', 'fixtures', 'generated');

export function loadTruth(layout: string): MaskFixtureTruth {
  return JSON.parse(readFileSync(join(GENERATED, `mask-${layout}.json`), 'utf8')) as MaskFixtureTruth;
}

/** The page as drawn by the fixture script (text lines with their drawn boxes), standing in for a reader. */
export function drawnPage(t: MaskFixtureTruth, pageNumber = 1): Page {
  return {
    pageNumber,
    width: t.width,
    height: t.height,
    lines: t.lines.map((l) => ({ ...l, bold: false, source: 'text' as const, confidence: 1 })),
    rules: [],
    images: [],
    ocr: false,
    rotation: 0,
  };
}

export function drawnDocument(t: MaskFixtureTruth, format: DocumentPages['format'] = 'png'): DocumentPages {
  return { format, pages: [drawnPage(t)] };
}

/** Text with whitespace removed, for leak checks (OCR may split or join words with spaces). */
export function squeeze(s: string): string {
  return s.normalize('NFKC').replace(/\s+/g, '');
}
