import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../../engine/core/image.js';
import type { DocumentPages } from '../../../engine/core/page.js';
import { detectFormat } from '../../../engine/formats/detect-format.js';
import { decodeImagePages } from '../../../engine/formats/image-decode.js';
import { openPdf } from '../../../engine/formats/pdf/pdfjs-loader.js';
import { maskFile } from '../../../engine/mask/mask-file.js';
import { ocrImage } from '../../../engine/vision/ocr/ocr-page.js';
import { readDocument } from '../../../engine/vision/read-document.js';
import { renderDocumentPage } from '../../../engine/vision/render-page.js';
import type { MaskFixtureTruth } from '../../fixtures/make-mask.js';
import { GENERATED, drawnDocument, drawnPage, loadTruth, squeeze } from './mask-fixtures.js';

const SIX = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长'];
const out = mkdtempSync(join(tmpdir(), 'mask-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Share of near-black pixels in a box. */
function darkShare(img: RgbaImage, box: [number, number, number, number]): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.ceil(box[1]); y < Math.floor(box[3]); y++) {
    for (let x = Math.ceil(box[0]); x < Math.floor(box[2]); x++) {
      const o = (y * img.width + x) * 4;
      all++;
      if (img.data[o]! < 40 && img.data[o + 1]! < 40 && img.data[o + 2]! < 40) dark++;
    }
  }
  return all === 0 ? 0 : dark / all;
}

/**
 * The drawn box of a value inside a fixture line, measured with the same font the fixture drew with
 * (independent of the masker's character-width estimate); shrunk a little to test the inside only.
 */
async function valueBoxes(t: MaskFixtureTruth, value: string): Promise<Array<[number, number, number, number]>> {
  const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
  GlobalFonts.registerFromPath('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'FixtureCJK');
  const ctx = createCanvas(10, 10).getContext('2d');
  ctx.font = '24px FixtureCJK';
  const boxes: Array<[number, number, number, number]> = [];
  for (const l of t.lines) {
    const i = l.text.indexOf(value);
    if (i < 0) continue;
    const x1 = l.bbox[0] + ctx.measureText(l.text.slice(0, i)).width;
    const x2 = l.bbox[0] + ctx.measureText(l.text.slice(0, i + value.length)).width;
    boxes.push([x1 + 2, l.bbox[1] + 3, x2 - 2, l.bbox[3] - 3]);
  }
  return boxes;
}

function assertNoLeak(text: string, t: MaskFixtureTruth): void {
  const squeezed = squeeze(text);
  for (const v of t.values) {
    // One- and two-character values (性别 男, 床号 8) also occur in ordinary words; long ones must never appear.
    if (squeeze(v.value).length < 3) continue;
    expect(squeezed, `${v.category} ${v.value} leaked`).not.toContain(squeeze(v.value));
  }
}

describe('masking a PNG scan', () => {
  const truth = loadTruth('form');
  let result: Awaited<ReturnType<typeof maskFile>>;
  let masked: RgbaImage;
  beforeAll(async () => {
    result = await maskFile({
      path: join(GENERATED, 'mask-form.png'), fileName: 'mask-form.png', format: 'png', doc: drawnDocument(truth),
      fields: SIX, outPath: join(out, 'masked_0.png'),
    });
    masked = (await decodeImagePages(result.outPath, 'png'))[0]!;
  });

  it('writes a PNG of the same size, atomically (no temp file left)', async () => {
    expect(await detectFormat(result.outPath, 'masked_0.png')).toBe('png');
    expect([masked.width, masked.height]).toEqual([truth.width, truth.height]);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(result.pageCount).toBe(1);
  });

  it('blacks out every drawn personal value', async () => {
    for (const v of truth.values) {
      for (const box of await valueBoxes(truth, v.value)) expect(darkShare(masked, box), `${v.category} ${v.value}`).toBeGreaterThan(0.97);
    }
  });

  it('leaves clinical text unmasked', async () => {
    for (const box of await valueBoxes(truth, '社区获得性肺炎')) expect(darkShare(masked, box)).toBeLessThan(0.4);
  });

  it('reports the categories and regions it masked', () => {
    expect(result.maskedFields.slice(0, 6)).toEqual(['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长']);
    for (const c of ['医生姓名', '家属姓名', '出生日期', '身份证号', '电话', '地址', '住院号', '床号', '工作单位']) expect(result.maskedFields).toContain(c);
    const name = result.regions.find((r) => r.category === '患者姓名')!;
    expect(name.page_number).toBe(1);
    // 姓名：林晓燕 is drawn at x=60 on the first form row (baseline 136): the name box starts after the label.
    expect(name.bbox[0]).toBeGreaterThan(60 + 24 * 2);
    expect(name.bbox[1]).toBeGreaterThan(100);
    expect(name.bbox[3]).toBeLessThan(150);
  });

  it('re-OCR of the masked pixels reads none of the masked values', async () => {
    const ocr = await ocrImage(masked, { detectOrientation: false });
    const text = ocr.lines.map((l) => l.text).join('\n');
    // The OCR works on this page: unmasked clinical text is read back.
    expect(squeeze(text)).toContain('出院诊断');
    assertNoLeak(text, truth);
  });
});

describe('masking a text PDF', () => {
  const truth = loadTruth('narrative');
  const pdfPath = join(GENERATED, 'mask-narrative.pdf');
  let doc: DocumentPages;
  let result: Awaited<ReturnType<typeof maskFile>>;
  beforeAll(async () => {
    doc = await readDocument(pdfPath, { fileName: 'mask-narrative.pdf', ocr: 'never' });
    result = await maskFile({ path: pdfPath, fileName: 'mask-narrative.pdf', format: 'pdf', doc, fields: SIX, outPath: join(out, 'masked_1.pdf') });
  });

  it('finds the values in the text layer', () => {
    expect(result.maskedFields).toEqual(expect.arrayContaining(['患者姓名', '身份证号', '电话', '地址', '医生姓名', '家属姓名', '入院时间', '出院时间']));
  });

  it('writes an image-only PDF: no text to copy, no original metadata', async () => {
    const bytes = new Uint8Array(readFileSync(result.outPath));
    const pdf = await openPdf(bytes);
    try {
      expect(pdf.numPages).toBe(1);
      const page = await pdf.getPage(1);
      const content = await page.getTextContent();
      expect(content.items.length).toBe(0);
      const meta = await pdf.getMetadata();
      const info = meta.info as Record<string, unknown>;
      expect(info.Title).toBe('Masked document');
      expect(JSON.stringify(info)).not.toContain(truth.values[0]!.value);
    } finally {
      await pdf.destroy();
    }
    // The source PDF's title carried the patient's name; no byte sequence of it survives.
    const raw = Buffer.from(bytes).toString('latin1');
    expect(raw).not.toContain('FEFF'); // no UTF-16 hex strings (pdf-lib writes Unicode titles that way)
  });

  it('re-OCR of the masked page reads none of the masked values', async () => {
    const img = await renderDocumentPage(result.outPath, 'pdf', 1);
    const ocr = await ocrImage(img, { detectOrientation: false });
    const text = ocr.lines.map((l) => l.text).join('\n');
    expect(squeeze(text)).toContain('冠脉造影');
    assertNoLeak(text, truth);
  });
});

describe('other raster formats keep their format', () => {
  it('a two-page TIFF comes back as a two-page TIFF with both pages masked', async () => {
    const form = loadTruth('form');
    const grid = loadTruth('grid');
    const doc: DocumentPages = { format: 'tiff', pages: [drawnPage(form, 1), drawnPage(grid, 2)] };
    const r = await maskFile({ path: join(GENERATED, 'mask-two-pages.tiff'), fileName: 'a.tiff', format: 'tiff', doc, fields: [], outPath: join(out, 'masked_2.tiff') });
    expect(r.pageCount).toBe(2);
    expect(await detectFormat(r.outPath, 'masked_2.tiff')).toBe('tiff');
    const pages = await decodeImagePages(r.outPath, 'tiff');
    expect(pages.length).toBe(2);
    for (const box of await valueBoxes(form, form.values[0]!.value)) expect(darkShare(pages[0]!, box)).toBeGreaterThan(0.97);
    for (const box of await valueBoxes(grid, grid.values[0]!.value)) expect(darkShare(pages[1]!, box)).toBeGreaterThan(0.97);
    // Default fields are the spec's six.
    expect(r.maskedFields).toContain('患者性别');
  });

  it('a BMP comes back as a BMP', async () => {
    const grid = loadTruth('grid');
    const r = await maskFile({ path: join(GENERATED, 'mask-grid.bmp'), fileName: 'a.bmp', format: 'bmp', doc: drawnDocument(grid, 'bmp'), fields: SIX, outPath: join(out, 'masked_3.bmp') });
    expect(await detectFormat(r.outPath, 'masked_3.bmp')).toBe('bmp');
    const img = (await decodeImagePages(r.outPath, 'bmp'))[0]!;
    expect([img.width, img.height]).toEqual([grid.width, grid.height]);
    for (const v of grid.values.filter((x) => x.category === '身份证号' || x.category === '患者姓名')) {
      for (const box of await valueBoxes(grid, v.value)) expect(darkShare(img, box)).toBeGreaterThan(0.97);
    }
  });

  it('a JPEG comes back as a JPEG', async () => {
    const t = loadTruth('narrative');
    const r = await maskFile({ path: join(GENERATED, 'mask-narrative.jpg'), fileName: 'a.jpg', format: 'jpg', doc: drawnDocument(t, 'jpg'), fields: SIX, outPath: join(out, 'masked_4.jpg') });
    expect(await detectFormat(r.outPath, 'masked_4.jpg')).toBe('jpg');
    const img = (await decodeImagePages(r.outPath, 'jpg'))[0]!;
    for (const box of await valueBoxes(t, t.values[0]!.value)) expect(darkShare(img, box)).toBeGreaterThan(0.95);
  });

  it('fails a file with a page that was never read instead of passing it on unmasked', async () => {
    const form = loadTruth('form');
    const doc: DocumentPages = { format: 'tiff', pages: [drawnPage(form, 1)] };
    await expect(
      maskFile({ path: join(GENERATED, 'mask-two-pages.tiff'), fileName: 'a.tiff', format: 'tiff', doc, fields: SIX, outPath: join(out, 'masked_5.tiff') }),
    ).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
    expect(readdirSync(out).filter((f) => f.startsWith('masked_5'))).toEqual([]);
  });

  it('refuses a format it cannot write', async () => {
    const t = loadTruth('form');
    await expect(
      maskFile({ path: join(GENERATED, 'mask-form.png'), fileName: 'a.docx', format: 'docx', doc: drawnDocument(t, 'docx'), fields: SIX, outPath: join(out, 'x.docx') }),
    ).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
  });
});
