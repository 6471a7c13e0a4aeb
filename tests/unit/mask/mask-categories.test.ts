import { describe, expect, it } from 'vitest';
import type { DocumentPages } from '../../../engine/core/page.js';
import { pageBoxToRaster } from '../../../engine/mask/burn-boxes.js';
import { findMaskRegions } from '../../../engine/mask/find-mask-regions.js';
import { categoriesToMask } from '../../../engine/mask/mask-categories.js';

function oneLineDoc(text: string): DocumentPages {
  const bbox: [number, number, number, number] = [10, 10, 10 + text.length * 20, 34];
  return {
    format: 'png',
    pages: [{ pageNumber: 1, width: 1000, height: 100, lines: [{ text, bbox, runs: [{ text, bbox, fontSize: 20 }], fontSize: 20, bold: false, source: 'ocr', confidence: 0.9 }], rules: [], images: [], ocr: true, rotation: 0 }],
  };
}

describe('which categories are masked', () => {
  const line = '姓名:韦春和 性别:女 年龄:52岁 入院日期:2024-02-01 电话:13605718842';

  it('masks direct identifiers whatever fields are asked for', () => {
    const plan = findMaskRegions(oneLineDoc(line), ['患者姓名']);
    expect(plan.maskedFields).toEqual(['患者姓名', '电话']);
    expect(plan.spans.map((s) => s.value)).toEqual(['韦春和', '13605718842']);
  });

  it('masks the json_schema fields when asked', () => {
    const plan = findMaskRegions(oneLineDoc(line), ['患者姓名', '患者性别', '年龄', '入院时间']);
    expect(plan.maskedFields).toEqual(['患者姓名', '患者性别', '入院时间', '年龄', '电话']);
    expect(plan.spans.map((s) => s.value)).toEqual(['韦春和', '女', '52岁', '2024-02-01', '13605718842']);
  });

  it('maps field names to categories', () => {
    const c = categoriesToMask(['住院时长', 'Sex']);
    expect(c.has('住院时长')).toBe(true);
    expect(c.has('患者性别')).toBe(true);
    expect(c.has('年龄')).toBe(false);
    expect(c.has('身份证号')).toBe(true);
  });
});

describe('page boxes back to the stored raster', () => {
  it('is the identity for an upright page', () => {
    expect(pageBoxToRaster([10, 20, 30, 40], 100, 200, 0, 100, 200)).toEqual([10, 20, 30, 40]);
  });

  it('undoes a quarter turn (a landscape scan read as portrait)', () => {
    // Raster 200 wide x 100 high, turned 90 degrees clockwise to an upright 100 x 200 page.
    // Upright (x, y) came from raster (y, 100 - x).
    expect(pageBoxToRaster([10, 20, 30, 40], 100, 200, 90, 200, 100)).toEqual([20, 70, 40, 90]);
    expect(pageBoxToRaster([10, 20, 30, 40], 100, 200, 270, 200, 100)).toEqual([160, 10, 180, 30]);
    expect(pageBoxToRaster([10, 20, 30, 40], 100, 200, 180, 100, 200)).toEqual([70, 160, 90, 180]);
  });

  it('scales when the page model is in another resolution than the pixels', () => {
    expect(pageBoxToRaster([10, 20, 30, 40], 100, 200, 0, 200, 400)).toEqual([20, 40, 60, 80]);
  });
});
