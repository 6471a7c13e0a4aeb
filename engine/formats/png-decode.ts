import { inflateSync } from 'node:zlib';
import type { RgbaImage } from '../core/image.js';
import { DocError } from '../core/errors.js';

/**
 * A PNG decoder in JavaScript over Node's zlib: corrupt files throw instead of crashing the process
 * (the native decoders behind @napi-rs/canvas segfault on some damaged PNGs), and inflation is capped
 * at the size the header implies. All colour types, bit depths 1-16, palettes with tRNS, Adam7.
 */
export function decodePng(buf: Buffer): RgbaImage {
  const bad = (why: string) => new DocError('INVALID_DOCUMENT', `the PNG image is damaged (${why})`);
  if (buf.length < 33 || buf.readUInt32BE(0) !== 0x89504e47) throw bad('no PNG signature');
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let ctype = 0;
  let interlace = 0;
  let palette: Buffer | null = null;
  let trns: Buffer | null = null;
  const idat: Buffer[] = [];
  while (pos + 8 <= buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (pos + 8 + len > buf.length) {
      if (type === 'IDAT' && idat.length) break; // cut in the last data chunk: what inflates is kept
      throw bad(`chunk ${type} runs past the end of the file`);
    }
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      depth = data[8]!;
      ctype = data[9]!;
      interlace = data[12]!;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') trns = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + len;
  }
  const channels = ({ 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as Record<number, number>)[ctype];
  if (!width || !height || !channels || ![1, 2, 4, 8, 16].includes(depth)) throw bad('unsupported or missing header');
  if (ctype === 3 && !palette) throw bad('palette image without a palette');
  if (idat.length === 0) throw bad('no image data');
  const bpp = Math.max(1, (channels * depth) / 8); // bytes per complete pixel, for filtering
  const passes = interlace
    ? [
        [0, 0, 8, 8],
        [4, 0, 8, 8],
        [0, 4, 4, 8],
        [2, 0, 4, 4],
        [0, 2, 2, 4],
        [1, 0, 2, 2],
        [0, 1, 1, 2],
      ]
    : [[0, 0, 1, 1]];
  let expected = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((width - x0!) / dx!);
    const ph = Math.ceil((height - y0!) / dy!);
    if (pw > 0 && ph > 0) expected += ph * (1 + Math.ceil((pw * channels * depth) / 8));
  }
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1024, finishFlush: 2 /* Z_SYNC_FLUSH: keep what a cut stream gives */ });
  } catch (err) {
    throw bad(`image data does not inflate: ${(err as Error).message}`);
  }
  const out = new Uint8ClampedArray(width * height * 4);
  let off = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const pw = Math.ceil((width - x0!) / dx!);
    const ph = Math.ceil((height - y0!) / dy!);
    if (pw <= 0 || ph <= 0) continue;
    const stride = Math.ceil((pw * channels * depth) / 8);
    let prev = new Uint8Array(stride);
    for (let y = 0; y < ph; y++) {
      if (off + 1 + stride > raw.length) return { width, height, data: out }; // truncated: rows so far
      const filter = raw[off]!;
      const line = new Uint8Array(raw.subarray(off + 1, off + 1 + stride));
      off += 1 + stride;
      unfilter(filter, line, prev, bpp);
      for (let x = 0; x < pw; x++) writePixel(out, (y0! + y * dy!) * width + x0! + x * dx!, line, x, ctype, depth, palette, trns);
      prev = line;
    }
  }
  return { width, height, data: out };
}

function unfilter(filter: number, line: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = line.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) line[i] = (line[i]! + line[i - bpp]!) & 255;
      return;
    case 2:
      for (let i = 0; i < n; i++) line[i] = (line[i]! + prev[i]!) & 255;
      return;
    case 3:
      for (let i = 0; i < n; i++) line[i] = (line[i]! + (((i >= bpp ? line[i - bpp]! : 0) + prev[i]!) >> 1)) & 255;
      return;
    case 4:
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? line[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        line[i] = (line[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 255;
      }
      return;
    default:
      throw new DocError('INVALID_DOCUMENT', `the PNG image is damaged (unknown row filter ${filter})`);
  }
}

function sample(line: Uint8Array, index: number, depth: number): number {
  if (depth === 8) return line[index]!;
  if (depth === 16) return line[index * 2]!; // high byte
  const perByte = 8 / depth;
  const byte = line[Math.floor(index / perByte)]!;
  const shift = 8 - depth * ((index % perByte) + 1);
  return (byte >> shift) & ((1 << depth) - 1);
}

function writePixel(out: Uint8ClampedArray, p: number, line: Uint8Array, x: number, ctype: number, depth: number, palette: Buffer | null, trns: Buffer | null): void {
  const o = p * 4;
  const scale = depth < 8 ? 255 / ((1 << depth) - 1) : 1;
  switch (ctype) {
    case 0: {
      const raw = sample(line, x, depth);
      const v = Math.round(raw * scale);
      out[o] = out[o + 1] = out[o + 2] = v;
      const transparent = trns && trns.length >= 2 && trns.readUInt16BE(0) === (depth === 16 ? (line[x * 2]! << 8) | line[x * 2 + 1]! : raw);
      out[o + 3] = transparent ? 0 : 255;
      return;
    }
    case 2:
      out[o] = sample(line, x * 3, depth);
      out[o + 1] = sample(line, x * 3 + 1, depth);
      out[o + 2] = sample(line, x * 3 + 2, depth);
      out[o + 3] = 255;
      return;
    case 3: {
      const i = sample(line, x, depth);
      out[o] = palette![i * 3] ?? 0;
      out[o + 1] = palette![i * 3 + 1] ?? 0;
      out[o + 2] = palette![i * 3 + 2] ?? 0;
      out[o + 3] = trns && i < trns.length ? trns[i]! : 255;
      return;
    }
    case 4:
      out[o] = out[o + 1] = out[o + 2] = sample(line, x * 2, depth);
      out[o + 3] = sample(line, x * 2 + 1, depth);
      return;
    default:
      out[o] = sample(line, x * 4, depth);
      out[o + 1] = sample(line, x * 4 + 1, depth);
      out[o + 2] = sample(line, x * 4 + 2, depth);
      out[o + 3] = sample(line, x * 4 + 3, depth);
  }
}
