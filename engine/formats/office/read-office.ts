import { readFile } from 'node:fs/promises';
import type { DocumentFormat, Page } from '../../core/page.js';
import { DocError } from '../../core/errors.js';
import { SafeZip } from './safe-zip.js';
import { readDocx } from './read-docx.js';
import { readXlsx } from './read-xlsx.js';
import { readPptx } from './read-pptx.js';
import { readHtml } from './read-html.js';
import { decodeText, readText } from './read-text.js';
import { withConvertedLegacy } from './convert-legacy.js';

const OFFICE_FORMATS = new Set<DocumentFormat>(['docx', 'xlsx', 'pptx', 'html', 'txt', 'doc', 'xls', 'ppt']);

export function isOfficeFormat(format: DocumentFormat): boolean {
  return OFFICE_FORMATS.has(format);
}

const LABEL: Partial<Record<DocumentFormat, string>> = { docx: 'the Word file', xlsx: 'the workbook', pptx: 'the presentation' };

/** Read an OOXML container through the bomb-safe zip reader. */
async function readOoxml(path: string, format: 'docx' | 'xlsx' | 'pptx'): Promise<Page[]> {
  const zip = new SafeZip(await readFile(path), LABEL[format]!);
  if (format === 'docx') return readDocx(zip);
  if (format === 'xlsx') return readXlsx(zip);
  return readPptx(zip);
}

/**
 * Office, HTML and text documents, read from their structure: pages carry `sourceBlocks` (headings
 * with levels, paragraphs, tables with merged cells, slide titles) and TextLines on synthetic
 * flow-layout pages (slides at their real size).
 */
export async function readOfficeDocument(path: string, format: DocumentFormat, fileName: string): Promise<Page[]> {
  let pages: Page[];
  switch (format) {
    case 'docx':
    case 'xlsx':
    case 'pptx':
      pages = await readOoxml(path, format);
      break;
    case 'doc':
    case 'xls':
    case 'ppt':
      pages = await withConvertedLegacy(path, format, (converted, target) => readOoxml(converted, target));
      break;
    case 'html':
      pages = readHtml(decodeText(await readFile(path)));
      break;
    case 'txt':
      pages = readText(decodeText(await readFile(path)));
      break;
    default:
      throw new DocError('INVALID_DOCUMENT', `${fileName || 'the file'}: ${format} is not an office or text format`);
  }
  if (pages.length === 0) throw new DocError('INVALID_DOCUMENT', `${fileName || 'the file'} has no pages`);
  return pages;
}
