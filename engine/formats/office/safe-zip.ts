import { inflateRawSync } from 'node:zlib';
import { DocError } from '../../core/errors.js';

/** Decompression limits: a 10 KB file must never become gigabytes in memory. */
export const ZIP_LIMITS = {
  /** Inflated bytes over all entries read from one archive. */
  maxTotalBytes: 200 * 1024 * 1024,
  /** Inflated bytes of one entry. */
  maxEntryBytes: 100 * 1024 * 1024,
  /** Inflated/compressed ratio allowed for entries larger than `ratioFloorBytes`. */
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
  maxEntries: 20_000,
};

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/**
 * A read-only zip archive (OOXML container) that inflates entries on demand and refuses bombs:
 * declared sizes and ratios are checked from the central directory, and actual inflation is capped
 * (zlib stops at the limit), so a lying header cannot make it allocate more.
 */
export class SafeZip {
  private readonly entries = new Map<string, ZipEntry>();
  private inflatedTotal = 0;

  constructor(private readonly buf: Buffer, private readonly label: string) {
    const eocd = findEndOfCentralDirectory(buf);
    if (eocd < 0) throw damaged(label, 'no zip directory');
    const count = buf.readUInt16LE(eocd + 10);
    const cdSize = buf.readUInt32LE(eocd + 12);
    const cdOffset = buf.readUInt32LE(eocd + 16);
    if (count === 0xffff || cdOffset === 0xffffffff) throw damaged(label, 'ZIP64 archives are not supported');
    if (count > ZIP_LIMITS.maxEntries) throw new DocError('INVALID_DOCUMENT', `${label} holds ${count} entries; at most ${ZIP_LIMITS.maxEntries} are accepted`);
    if (cdOffset + cdSize > buf.length) throw damaged(label, 'the zip directory lies past the end of the file (truncated)');
    let p = cdOffset;
    let declaredTotal = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) throw damaged(label, 'broken zip directory');
      const method = buf.readUInt16LE(p + 10);
      const compressedSize = buf.readUInt32LE(p + 20);
      const size = buf.readUInt32LE(p + 24);
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      const localOffset = buf.readUInt32LE(p + 42);
      const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
      p += 46 + nameLen + extraLen + commentLen;
      declaredTotal += size;
      checkBomb(label, name, size, compressedSize);
      this.entries.set(name.replace(/^\/+/, ''), { name, method, compressedSize, size, localOffset });
    }
    if (declaredTotal > ZIP_LIMITS.maxTotalBytes) throw bomb(label, `its entries declare ${mb(declaredTotal)} MB when inflated (limit ${mb(ZIP_LIMITS.maxTotalBytes)} MB)`);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Inflate one entry, never past the limits whatever its header says. */
  read(name: string): Buffer | null {
    const e = this.entries.get(name);
    if (!e) return null;
    const p = e.localOffset;
    if (p + 30 > this.buf.length || this.buf.readUInt32LE(p) !== 0x04034b50) throw damaged(this.label, `entry ${name} is missing (truncated file)`);
    const start = p + 30 + this.buf.readUInt16LE(p + 26) + this.buf.readUInt16LE(p + 28);
    const end = start + e.compressedSize;
    if (end > this.buf.length) throw damaged(this.label, `entry ${name} is cut short (truncated file)`);
    const raw = this.buf.subarray(start, end);
    const budget = Math.min(ZIP_LIMITS.maxEntryBytes, ZIP_LIMITS.maxTotalBytes - this.inflatedTotal);
    let out: Buffer;
    if (e.method === 0) {
      out = Buffer.from(raw);
    } else if (e.method === 8) {
      try {
        out = inflateRawSync(raw, { maxOutputLength: Math.max(1, budget) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
          throw bomb(this.label, `entry ${name} inflates past ${mb(budget)} MB`);
        }
        throw damaged(this.label, `entry ${name} cannot be inflated (${(err as Error).message})`);
      }
    } else {
      throw damaged(this.label, `entry ${name} uses unsupported compression method ${e.method}`);
    }
    if (out.length > budget) throw bomb(this.label, `entry ${name} inflates past ${mb(budget)} MB`);
    checkBomb(this.label, name, out.length, e.compressedSize);
    this.inflatedTotal += out.length;
    return out;
  }

  readText(name: string): string | null {
    const b = this.read(name);
    return b ? b.toString('utf8').replace(/^\uFEFF/, '') : null;
  }
}

function checkBomb(label: string, name: string, size: number, compressed: number): void {
  if (size > ZIP_LIMITS.maxEntryBytes) throw bomb(label, `entry ${name} declares ${mb(size)} MB when inflated (limit ${mb(ZIP_LIMITS.maxEntryBytes)} MB)`);
  if (size > ZIP_LIMITS.ratioFloorBytes && size > ZIP_LIMITS.maxRatio * Math.max(1, compressed)) {
    throw bomb(label, `entry ${name} inflates ${Math.round(size / Math.max(1, compressed))} times (limit ${ZIP_LIMITS.maxRatio})`);
  }
}

function findEndOfCentralDirectory(buf: Buffer): number {
  const min = Math.max(0, buf.length - 22 - 65535);
  for (let i = buf.length - 22; i >= min; i--) if (buf.readUInt32LE(i) === 0x06054b50) return i;
  return -1;
}

function mb(n: number): number {
  return Math.round(n / 1048576);
}

function damaged(label: string, why: string): DocError {
  return new DocError('INVALID_DOCUMENT', `${label} is damaged: ${why}`);
}

function bomb(label: string, why: string): DocError {
  return new DocError('INVALID_DOCUMENT', `${label} looks like a decompression bomb and was refused: ${why}`);
}
