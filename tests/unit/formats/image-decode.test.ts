import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { decodeImagePages } from '../../../engine/formats/image-decode.js';
import { readImageHeader } from '../../../engine/formats/image-header.js';
import { readFileSync } from 'node:fs';
import { DOC_FIXTURES } from '../../fixtures/make-documents.js';
import type { RgbaImage } from '../../../engine/core/image.js';

const dir = join(import.meta.dirname, '../../fixtures/generated');
const file = (name: string) => join(dir, name);
const pixel = (img: RgbaImage, x: number, y: number) => Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 3));

describe('decodeImagePages', () => {
  it('decodes every page of a multi-page TIFF', async () => {
    const pages = await decodeImagePages(file(DOC_FIXTURES.tiff3), 'tiff');
    expect(pages.map((p) => [p.width, p.height])).toEqual([
      [300, 200],
      [300, 200],
      [300, 200],
    ]);
    // page k has a black bar k*20 px wide at the top-left
    pages.forEach((p, i) => {
      expect(pixel(p, (i + 1) * 20 - 5, 10)).toEqual([0, 0, 0]);
      expect(pixel(p, (i + 1) * 20 + 5, 10)).toEqual([255, 255, 255]);
    });
  });

  it('applies the EXIF orientation of a JPEG', async () => {
    const [img] = await decodeImagePages(file(DOC_FIXTURES.exifJpg), 'jpg');
    expect([img!.width, img!.height]).toEqual([100, 200]);
    const topRight = pixel(img!, 90, 10);
    const topLeft = pixel(img!, 10, 10);
    expect(topRight[0]).toBeGreaterThan(200);
    expect(topRight[1]).toBeLessThan(60);
    expect(topLeft).toEqual([255, 255, 255].map((v) => expect.closeTo(v, -1.5)) as unknown as number[]);
  });

  it('decodes PNG pixels exactly as a reference decoder does', async () => {
    const { loadImage, createCanvas } = await import('@napi-rs/canvas');
    const bytes = readFileSync(file(DOC_FIXTURES.scanPng));
    const ref = await loadImage(bytes);
    const ctx = createCanvas(ref.width, ref.height).getContext('2d');
    ctx.drawImage(ref, 0, 0);
    const expected = ctx.getImageData(0, 0, ref.width, ref.height).data;
    const [img] = await decodeImagePages(file(DOC_FIXTURES.scanPng), 'png');
    expect([img!.width, img!.height]).toEqual([1000, 600]);
    expect(Buffer.compare(Buffer.from(img!.data.buffer, img!.data.byteOffset, img!.data.byteLength), Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength))).toBe(0);
  });

  it('fails a damaged PNG or JPEG with a message instead of crashing', async () => {
    const { writeFileSync } = await import('node:fs');
    const png = Buffer.from(readFileSync(file(DOC_FIXTURES.scanPng)));
    for (let i = 200; i < png.length; i += 501) png[i] = png[i]! ^ 0x5a;
    writeFileSync(join(dir, 'flipped-scan.png'), png);
    await expect(decodeImagePages(join(dir, 'flipped-scan.png'), 'png')).rejects.toMatchObject({ code: 'INVALID_DOCUMENT', message: expect.stringContaining('the PNG image is damaged') });
    const jpg = readFileSync(file(DOC_FIXTURES.exifJpg));
    writeFileSync(join(dir, 'cut-exif.jpg'), jpg.subarray(0, 400));
    await expect(decodeImagePages(join(dir, 'cut-exif.jpg'), 'jpg')).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
  });

  it('decodes a BMP upright', async () => {
    const [img] = await decodeImagePages(file(DOC_FIXTURES.bmp), 'bmp');
    expect([img!.width, img!.height]).toEqual([64, 32]);
    expect(pixel(img!, 5, 2)).toEqual([0, 0, 255]);
    expect(pixel(img!, 60, 30)).toEqual([255, 255, 255]);
  });

  it('refuses an image whose header claims 50000 x 50000 pixels, before decoding', async () => {
    const header = readImageHeader(readFileSync(file(DOC_FIXTURES.hugePng)), 'png');
    expect(header).toMatchObject({ width: 50000, height: 50000 });
    await expect(decodeImagePages(file(DOC_FIXTURES.hugePng), 'png')).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
      message: 'the image is 50000 x 50000 pixels (2500 megapixels); at most 100 megapixels are accepted',
    });
  });

  it('refuses a TIFF whose header claims 50000 x 50000 pixels, before decoding', async () => {
    await expect(decodeImagePages(file(DOC_FIXTURES.hugeTiff), 'tiff')).rejects.toMatchObject({
      code: 'INVALID_DOCUMENT',
      message: 'the image (page 1) is 50000 x 50000 pixels (2500 megapixels); at most 100 megapixels are accepted',
    });
  });

  it('refuses a truncated PNG', async () => {
    const { writeFileSync } = await import('node:fs');
    const cut = join(dir, 'cut-scan.png');
    writeFileSync(cut, readFileSync(file(DOC_FIXTURES.scanPng)).subarray(0, 20));
    await expect(decodeImagePages(cut, 'png')).rejects.toMatchObject({ code: 'INVALID_DOCUMENT' });
  });
});
