/**
 * Some PDF fonts map ordinary characters to code points of the CJK Radicals Supplement (U+2E80–U+2EFF),
 * which NFKC leaves alone ("增⻓" for 增长, "⻔诊" for 门诊). They are put back to the ideographs they
 * stand for, so that text read from such layers equals what a reader sees.
 */
const RADICALS: Record<string, string> = {
  '\u2E81': '厂', '\u2E87': '几', '\u2E8A': '卜', '\u2E8C': '小', '\u2E8D': '小', '\u2E8E': '兀', '\u2E93': '幺',
  '\u2E95': '彐', '\u2E9D': '月', '\u2E9F': '母', '\u2EA0': '民', '\u2EA9': '王', '\u2EAA': '疋', '\u2EAC': '示',
  '\u2EAE': '竹', '\u2EAF': '糸', '\u2EB0': '纟', '\u2EB6': '羊', '\u2EB7': '羊', '\u2EBB': '聿', '\u2EBC': '月',
  '\u2EC4': '西', '\u2EC5': '见', '\u2EC6': '角', '\u2EC8': '讠', '\u2EC9': '贝', '\u2ECA': '足', '\u2ECB': '车',
  '\u2ECC': '辶', '\u2ECD': '辶', '\u2ECF': '阝', '\u2ED0': '钅', '\u2ED1': '長', '\u2ED3': '长', '\u2ED4': '门',
  '\u2ED6': '阝', '\u2ED7': '雨', '\u2ED8': '青', '\u2ED9': '韦', '\u2EDA': '页', '\u2EDB': '风', '\u2EDC': '飞',
  '\u2EDD': '食', '\u2EDF': '飠', '\u2EE0': '饣', '\u2EE2': '马', '\u2EE3': '骨', '\u2EE4': '鬼', '\u2EE5': '鱼',
  '\u2EE6': '鸟', '\u2EE7': '卤', '\u2EE8': '麦', '\u2EE9': '黄', '\u2EEC': '齐', '\u2EEE': '齿', '\u2EEF': '龙',
  '\u2EF0': '龙', '\u2EF3': '龟',
};

export function unifyRadicals(s: string): string {
  return /[\u2E80-\u2EFF]/.test(s) ? s.replace(/[\u2E80-\u2EFF]/g, (c) => RADICALS[c] ?? c) : s;
}

/** Text normalisation shared by every reader: NFKC, radicals unified, collapsed spaces, no control characters. */
export function normalizeText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return unifyRadicals(s.normalize('NFKC')).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').replace(/[ \t\u00a0]+/g, ' ');
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]/;
export function isCjk(ch: string): boolean {
  return CJK.test(ch);
}

/** Share of CJK characters among the letters of s (0..1). */
export function cjkRatio(s: string): number {
  let cjk = 0;
  let letters = 0;
  for (const ch of s) {
    if (/\s/.test(ch)) continue;
    letters++;
    if (CJK.test(ch)) cjk++;
  }
  return letters === 0 ? 0 : cjk / letters;
}
