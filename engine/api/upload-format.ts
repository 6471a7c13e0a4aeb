import { open } from 'node:fs/promises';
import type { DocumentFormat } from '../core/page.js';
import { detectFormat } from '../formats/detect-format.js';

const MAX_CENTRAL_DIRECTORY = 16 * 1024 * 1024;

/**
 * The format of an upload, found in the server process without loading the file: a zip container
 * (OOXML) is told apart by the names in its central directory, read from the end of the file; every
 * other format goes to detectFormat, which reads only the head.
 */
export async function detectUploadFormat(path: string, fileName: string): Promise<DocumentFormat | null> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await fh.read(head, 0, 4, 0);
    if (head.readUInt32LE(0) !== 0x04034b50) return await detectFormat(path, fileName);
    const names = await zipEntryNames(fh, (await fh.stat()).size);
    if (!names) return null;
    if (names.has('word/document.xml')) return 'docx';
    if (names.has('xl/workbook.xml')) return 'xlsx';
    if (names.has('ppt/presentation.xml')) return 'pptx';
    return null;
  } finally {
    await fh.close();
  }
}

type Handle = Awaited<ReturnType<typeof open>>;

/** Entry names from the end-of-central-directory record and the central directory; null when malformed. */
async function zipEntryNames(fh: Handle, size: number): Promise<Set<string> | null> {
  const tailLen = Math.min(size, 22 + 65535);
  const tail = Buffer.alloc(tailLen);
  await fh.read(tail, 0, tailLen, size - tailLen);
  let eocd = -1;
  for (let i = tailLen - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdSize > MAX_CENTRAL_DIRECTORY || cdOffset + cdSize > size) return null;
  const cd = Buffer.alloc(cdSize);
  await fh.read(cd, 0, cdSize, cdOffset);
  const names = new Set<string>();
  let p = 0;
  for (let n = 0; n < count && p + 46 <= cd.length; n++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) return null;
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    if (p + 46 + nameLen > cd.length) return null;
    names.add(cd.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}
