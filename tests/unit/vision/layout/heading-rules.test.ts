import { describe, expect, it } from 'vitest';
import { captionKind } from '../../../../engine/vision/layout/heading-rules.js';

describe('captionKind', () => {
  it('reads captions with a stray OCR dot in the caption word', () => {
    expect(captionKind('TABL.e 1: The muscles of the shoulder.')).toBe('table');
    expect(captionKind('Fi,gure 3 Growth per year')).toBe('figure');
    expect(captionKind('Table 2 Results')).toBe('table');
  });

  it('leaves prose that only starts with a short word and a dot alone', () => {
    expect(captionKind('e.g. 3 samples were taken')).toBeNull();
    expect(captionKind('Dr.Smith 4 visits')).toBeNull();
  });
});
