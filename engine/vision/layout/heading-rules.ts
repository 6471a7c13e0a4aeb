/** Numbered headings: "1", "2.3", "2.3.1", "第三章", "一、", "(二)", "Chapter 4", "IV.". Returns the depth or 0. */
export function headingNumberDepth(text: string): number {
  const t = text.trim();
  const dotted = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S/.exec(t) ?? /^(\d{1,2}(?:\.\d{1,2}){1,4})\.?\s*[^\d\s.]/.exec(t);
  if (dotted) return dotted[1]!.split('.').length;
  // OCR can drop the space after the number: "6.Limitations".
  const joined = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.(?=\p{Lu}\p{Ll})/u.exec(t);
  if (joined) return joined[1]!.split('.').length;
  if (/^第[一二三四五六七八九十百零\d]+[章篇部]/.test(t)) return 1;
  if (/^第[一二三四五六七八九十百零\d]+[节]/.test(t)) return 2;
  if (/^[一二三四五六七八九十]+[、.．]/.test(t)) return 1;
  if (/^[（(][一二三四五六七八九十]+[)）]/.test(t)) return 2;
  if (/^(chapter|part|section)\s+[\dIVX]+\b/i.test(t)) return 1;
  if (/^[IVX]{1,5}\.\s+\S/.test(t)) return 1;
  if (/^[A-H]\.\s+[A-Z]/.test(t)) return 2;
  return 0;
}

/** A paragraph that reads like a sentence rather than a heading. */
export function endsLikeSentence(text: string): boolean {
  return /[.。;；,，:：!！?？、]$/.test(text.trim()) && !/^\d+(\.\d+)*\.$/.test(text.trim());
}

const LIST_MARKER = /^([•●○◦▪■□◆◇➢➤►✓✔\-–—*·]\s*|\(?\d{1,2}[).、]\s*|[a-z][).]\s+|[①-⑳]|\(?[一二三四五六七八九十]+[)）、]|[（(]\d{1,2}[)）])/;
/** The first line of a list item. */
export function startsListItem(text: string): boolean {
  return LIST_MARKER.test(text.trim());
}

const CAPTION = /^(figure|fig\.?|table|tab\.|chart|exhibit|scheme|plate|图|表|圖|附图|附表)\s*[\dA-Z一二三四五六七八九十IVX]+([-.–:：]\d+)*/i;
export function captionKind(text: string): 'table' | 'figure' | null {
  // OCR can read a stray dot or comma into the caption word ("TABL.e 1"): dropped when a number follows.
  const t = text.trim().replace(/^([A-Za-z]{2,5})[.,'`·]([A-Za-z]{1,4})(?=\s*\d)/, '$1$2');
  const m = CAPTION.exec(t);
  if (!m) return null;
  return /^(table|tab\.|表|附表)/i.test(m[1]!) ? 'table' : 'figure';
}

export function isNoteText(text: string): boolean {
  return /^(notes?|source|sources|资料来源|数据来源|来源|注|备注)\s*[:：.]/i.test(text.trim()) || /^\*\s?\S/.test(text.trim());
}
