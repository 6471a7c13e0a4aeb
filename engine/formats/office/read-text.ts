import type { Page } from '../../core/page.js';
import { layoutFlow, type FlowBlock } from './flow-layout.js';

/** Decode text bytes: UTF-8 (with or without BOM, UTF-16 by BOM), else GB18030 (which covers GBK and GB2312). */
export function decodeText(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('gb18030').decode(buf);
  }
}

/** Plain text: paragraphs are separated by blank lines; line breaks inside a paragraph are kept. */
export function readText(text: string): Page[] {
  const blocks: FlowBlock[] = [];
  for (const para of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const t = para.replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
    if (t.trim()) blocks.push({ kind: 'paragraph', text: t });
  }
  return layoutFlow(blocks);
}
