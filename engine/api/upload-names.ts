/**
 * A client's file name, made safe to store and show: no directory parts (`../`), no control characters
 * or NUL, at most 200 characters (extension kept). Never used as a path: blobs are named by hash.
 */
export function cleanFileName(raw: string | undefined): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[\\/]/).pop() ?? '';
  name = name.replace(/[\u0000-\u001f\u007f\ufffd]/g, '').trim();
  if (name === '.' || name === '..') name = '';
  if (name.length > 200) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = name.slice(0, 200 - ext.length) + ext;
  }
  return name || 'file';
}
