import { open } from 'node:fs/promises';
import JSZip from 'jszip';
import { readFile } from 'node:fs/promises';
import type { DocumentFormat } from '../core/page.js';

/**
 * Identify a file by its content, never by its extension alone. The extension only picks among
 * formats that share a container (the OLE legacy Office family, OOXML macro/template variants).
 * Returns null for anything the engine cannot read.
 */
export async function detectFormat(path: string, fileName = ''): Promise<DocumentFormat | null> {
  const fh = await open(path, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(8192, size));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  if (size === 0) return null;
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const fromMagic = detectFromHead(head);
  if (fromMagic === 'zip') return size <= 200 * 1024 * 1024 ? detectOoxml(path) : null;
  if (fromMagic === 'ole') return detectOle(head, ext);
  if (fromMagic) return fromMagic;
  return detectText(head, ext);
}

function detectFromHead(h: Buffer): DocumentFormat | 'zip' | 'ole' | null {
  const at = (s: string, off = 0) => h.length >= off + s.length && h.toString('latin1', off, off + s.length) === s;
  // %PDF may be preceded by junk bytes within the first 1024 bytes (the PDF spec tolerates it).
  const pdfAt = h.subarray(0, 1024).indexOf('%PDF-');
  if (pdfAt >= 0) return 'pdf';
  if (h.length >= 8 && h[0] === 0x89 && at('PNG', 1)) return 'png';
  if (h.length >= 3 && h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff) return 'jpg';
  if (at('BM') && h.length >= 26) return 'bmp';
  if (at('II*\u0000') || at('MM\u0000*')) return 'tiff';
  if (at('GIF87a') || at('GIF89a')) return 'gif';
  if (at('RIFF') && at('WEBP', 8)) return 'webp';
  if (at('PK\u0003\u0004')) return 'zip';
  if (h.length >= 8 && h.readUInt32BE(0) === 0xd0cf11e0 && h.readUInt32BE(4) === 0xa1b11ae1) return 'ole';
  return null;
}

async function detectOoxml(path: string): Promise<DocumentFormat | null> {
  try {
    const zip = await JSZip.loadAsync(await readFile(path));
    if (zip.file('word/document.xml')) return 'docx';
    if (zip.file('xl/workbook.xml')) return 'xlsx';
    if (zip.file('ppt/presentation.xml')) return 'pptx';
    return null;
  } catch {
    return null;
  }
}

/** OLE compound files: the directory names its main stream (UTF-16LE) in the first sectors. */
function detectOle(head: Buffer, ext: string): DocumentFormat | null {
  const byExt: Record<string, DocumentFormat> = { doc: 'doc', dot: 'doc', xls: 'xls', xlt: 'xls', ppt: 'ppt', pot: 'ppt', pps: 'ppt' };
  const hit = byExt[ext];
  if (hit) return hit;
  const text = head.toString('utf16le');
  if (text.includes('WordDocument')) return 'doc';
  if (text.includes('Workbook') || text.includes('Book')) return 'xls';
  if (text.includes('PowerPoint Document')) return 'ppt';
  // The directory may lie past the first 8 KB; a legacy Office file with an unknown extension is still Office.
  return null;
}

function detectText(head: Buffer, ext: string): DocumentFormat | null {
  if (head.includes(0)) return null; // binary
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - trailingPartial(head)));
  } catch {
    // not UTF-8: accept GB18030 / Latin text only when the extension says text
    return ext === 'txt' ? 'txt' : ext === 'html' || ext === 'htm' ? 'html' : null;
  }
  const start = text.replace(/^\uFEFF/, '').trimStart().slice(0, 512).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html') || /<(head|body)[\s>]/.test(start)) return 'html';
  if (ext === 'html' || ext === 'htm') return /<[a-z!]/.test(start) ? 'html' : 'txt';
  return 'txt';
}

/** Bytes of an incomplete UTF-8 sequence at the end of a cut buffer. */
function trailingPartial(b: Buffer): number {
  for (let i = 1; i <= Math.min(3, b.length); i++) {
    const c = b[b.length - i]!;
    if ((c & 0xc0) === 0x80) continue;
    if ((c & 0xe0) === 0xc0) return i < 2 ? i : 0;
    if ((c & 0xf0) === 0xe0) return i < 3 ? i : 0;
    if ((c & 0xf8) === 0xf0) return i < 4 ? i : 0;
    return 0;
  }
  return 0;
}

/** Formats each endpoint accepts (interface.md). */
export const ACCEPTED_FORMATS = {
  parse: new Set<DocumentFormat>(['pdf', 'docx', 'doc', 'txt', 'html', 'xlsx', 'xls', 'pptx', 'ppt', 'tiff', 'png', 'jpg', 'bmp']),
  extract: new Set<DocumentFormat>(['jpg', 'png', 'bmp', 'tiff', 'pdf']),
  'emr-extract': new Set<DocumentFormat>(['jpg', 'png', 'bmp', 'tiff', 'gif', 'webp', 'pdf']),
  'bl-extract': new Set<DocumentFormat>(['jpg', 'png', 'pdf']),
  'occ-extract': new Set<DocumentFormat>(['jpg', 'png', 'bmp', 'tiff', 'pdf']),
  mask: new Set<DocumentFormat>(['jpg', 'png', 'bmp', 'tiff', 'pdf']),
} as const;
