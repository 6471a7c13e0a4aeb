const CHECKED = /^(?:☑|☒|■|✓|✔|√|\[[xX✓✔√]\]|\([xX✓✔√]\))/u;
const BOX = /(☑|☒|■|✓|✔|√|☐|□|\[[ xX✓✔√]?\]|\([ xX✓✔√]\))/u;
const BOX_G = /(☑|☒|■|✓|✔|√|☐|□|\[[ xX✓✔√]?\]|\([ xX✓✔√]\))/gu;

/** True when the text holds checkbox marks (☑ ☐ [x] [ ]). */
export function hasCheckboxes(text: string): boolean {
  return BOX.test(text) && /☐|□|\[ ?\]|☑|☒|\[[xX]\]/u.test(text);
}

/**
 * The options a row of checkboxes marks as chosen, e.g. "☑男 ☐女" -> "男", "[x] Yes [ ] No" -> "Yes".
 * Several chosen options are joined with "、"; none chosen gives "".
 */
export function checkedOptions(text: string): string {
  const parts: { mark: string; label: string }[] = [];
  const marks = [...text.matchAll(BOX_G)];
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i]!;
    const start = m.index! + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1]!.index! : text.length;
    parts.push({ mark: m[0], label: text.slice(start, end).trim().replace(/[,，;；/]+$/u, '').trim() });
  }
  return parts
    .filter((p) => CHECKED.test(p.mark) && p.label)
    .map((p) => p.label)
    .join('、');
}
