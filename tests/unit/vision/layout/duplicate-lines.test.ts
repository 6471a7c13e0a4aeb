import { describe, expect, it } from 'vitest';
import { dropDuplicateOcrLines } from '../../../../engine/vision/layout/duplicate-lines.js';
import { textLine } from './page-lines.js';

const ocr = (text: string, bbox: [number, number, number, number]) => ({ ...textLine(text, bbox, bbox[3] - bbox[1]), source: 'ocr' as const });

describe('dropDuplicateOcrLines', () => {
  it('keeps the taller of two half-overlapping boxes read with nearly the same text', () => {
    const lines = [ocr('上蔡农联社助农种植反季节里兹', [765, 1082, 973, 1098]), ocr('上蔡农联社助农种植反李节果疏', [761, 1092, 975, 1111]), ocr('本报讯 近日记者从上蔡县获悉', [760, 1120, 975, 1134])];
    expect(dropDuplicateOcrLines(lines).map((l) => l.text)).toEqual(['上蔡农联社助农种植反李节果疏', '本报讯 近日记者从上蔡县获悉']);
  });

  it('keeps tightly set column lines that touch, lines of other text, and pieces side by side on one row', () => {
    const column = [ocr('着力提升平水仙茶、永福高山茶和官田铁冠三大', [185, 330, 359, 344]), ocr('名优茶的品质和知名度,日前,中国茶叶学会已经', [185, 342, 359, 356])];
    expect(dropDuplicateOcrLines(column)).toHaveLength(2);
    const overlapping = [ocr('Annual report of the harbour', [100, 100, 400, 120]), ocr('Survey of the quay walls', [100, 110, 400, 130])];
    expect(dropDuplicateOcrLines(overlapping)).toHaveLength(2);
    const row = [ocr('Revenue growth', [100, 100, 300, 120]), ocr('Revenue growth', [320, 100, 520, 120])];
    expect(dropDuplicateOcrLines(row)).toHaveLength(2);
  });
});
