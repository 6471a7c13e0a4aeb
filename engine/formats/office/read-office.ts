import type { DocumentFormat, Page } from '../../core/page.js';
import { DocError } from '../../core/errors.js';

const OFFICE_FORMATS = new Set<DocumentFormat>(['docx', 'xlsx', 'pptx', 'html', 'txt', 'doc', 'xls', 'ppt']);

export function isOfficeFormat(format: DocumentFormat): boolean {
  return OFFICE_FORMATS.has(format);
}

/** Office, HTML and text documents: read from their structure, laid out on synthetic pages. */
export async function readOfficeDocument(_path: string, format: DocumentFormat, _fileName: string): Promise<Page[]> {
  throw new DocError('INVALID_DOCUMENT', `reading ${format} files is not available in this build yet`);
}
