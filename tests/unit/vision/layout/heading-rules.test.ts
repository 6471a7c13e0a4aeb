import { describe, expect, it } from 'vitest';
import { captionKind, headingNumberDepth } from '../../../../engine/vision/layout/heading-rules.js';

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

describe('headingNumberDepth', () => {
  it('reads a heading number OCR joined to its word ("6.Limitations", "2.1.Methods"), but not one joined to a small letter', () => {
    expect(headingNumberDepth('6.Limitations')).toBe(1);
    expect(headingNumberDepth('2.1.Methods')).toBe(2);
    expect(headingNumberDepth('6 Limitations')).toBe(1);
    expect(headingNumberDepth('6.likely')).toBe(0);
  });
});
