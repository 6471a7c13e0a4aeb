import type { FileKind } from '../../state/workspace.js';

const IMAGE_EXT = new Set(['png', 'jpg', 'jpeg', 'bmp', 'gif', 'webp', 'tif', 'tiff']);

/** Formats the parse endpoint accepts (interface.md) plus the image formats extract/mask take. */
export const ACCEPTED_EXT = new Set([
  'pdf', 'dotm', 'docm', 'doc', 'dotx', 'docx', 'txt', 'html', 'dot', 'xltm', 'xlsm', 'xlsx', 'xls', 'xlt',
  'potm', 'pptx', 'ppt', 'pot', 'pps', 'tif', 'tiff', 'png', 'jpg', 'jpeg', 'bmp', 'gif', 'webp',
]);

export function extensionOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i + 1).toLowerCase();
}

/** How the viewer shows a file: PDFs through pdf.js, images as they are (TIFF decoded in the page), others as blank pages. */
export function fileKind(name: string, mime = ''): FileKind {
  const ext = extensionOf(name);
  if (ext === 'pdf' || mime === 'application/pdf') return 'pdf';
  if (IMAGE_EXT.has(ext)) return 'image';
  return 'other';
}
