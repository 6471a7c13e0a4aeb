import { cjkRatio } from '../../core/text.js';

const HAN = /[\u3400-\u9fff\uf900-\ufaff]/;
const FULL_WIDTH: Record<string, string> = { ',': '，', ';': '；', ':': '：', '!': '！', '?': '？', '(': '（', ')': '）' };

/**
 * Chinese text is printed with full-width punctuation; NFKC (applied to every line read) turns "，：（）" into
 * ASCII. In Chinese text the printed forms are put back: a comma, colon, semicolon, "!" or "?" next to a Han
 * character (in a mostly Chinese paragraph: any not set between digits or inside a Latin token such as a time
 * or an address), brackets next to a Han character. Spaces around the restored marks go.
 */
export function restoreCjkPunctuation(text: string): string {
  if (!/[,;:!?()]/.test(text) || !/[\u3400-\u9fff]/.test(text)) return text;
  const ratio = cjkRatio(text);
  if (ratio < 0.2) return text;
  const chars = [...text];
  const near = (i: number, step: 1 | -1): string => {
    for (let k = i + step; k >= 0 && k < chars.length; k += step) if (chars[k] !== ' ') return chars[k]!;
    return '';
  };
  let changed = false;
  // Brackets pair up: a closing bracket takes the form its opening one was given.
  const opened: boolean[] = [];
  const out = chars.map((c, i) => {
    const full = FULL_WIDTH[c];
    if (!full) return c;
    const prev = near(i, -1);
    const next = near(i, 1);
    const han = HAN.test(prev) || HAN.test(next);
    let restore: boolean;
    if (c === '(') opened.push((restore = han));
    else if (c === ')') restore = opened.length > 0 ? opened.pop()! : han;
    else if (han) restore = true;
    else restore = ratio >= 0.5 && !(/[\dA-Za-z/.]/.test(prev) && /[\dA-Za-z/]/.test(chars[i + 1] ?? '')) && chars[i + 1] !== ' ';
    if (restore) changed = true;
    return restore ? full : c;
  });
  return changed ? out.join('').replace(/ *([，；：！？（）]) */g, '$1') : text;
}
