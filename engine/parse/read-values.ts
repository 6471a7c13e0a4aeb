/** Numbers, units and periods as printed in tables and charts. */

export interface ReadNumber {
  value: number;
  /** '%' when the text carries a percent sign; a currency or a CJK unit when printed with the number. */
  unit: string | null;
}

export function readNumber(text: string): ReadNumber | null {
  let t = text.trim().replace(/\s+/g, '');
  if (!t) return null;
  let negative = false;
  if (/^[(（].*[)）]$/.test(t)) {
    negative = true;
    t = t.slice(1, -1);
  }
  let unit: string | null = null;
  const cur = /^([$¥€£￥]|US\$|RMB|HK\$)/i.exec(t);
  if (cur) {
    unit = cur[1]!;
    t = t.slice(cur[1]!.length);
  }
  if (/^[-−–]/.test(t)) {
    negative = !negative;
    t = t.slice(1);
  } else if (t.startsWith('+')) t = t.slice(1);
  const m = /^(\d{1,3}(?:[,，]\d{3})+|\d+)(\.\d+)?(%|％|[万亿千百]?元|万|亿|x|倍|bp|pp)?[*†]?$/i.exec(t);
  if (!m) return null;
  const value = Number(m[1]!.replace(/[,，]/g, '') + (m[2] ?? ''));
  if (!Number.isFinite(value)) return null;
  if (m[3]) unit = m[3] === '％' ? '%' : m[3];
  return { value: negative ? -value : value, unit };
}

const PERIOD = [
  /^(FY|CY)?\s?'?(19|20)\d{2}\s?[AEFPB]?$/i,
  /^(19|20)\d{2}\s?(年|年度|年末|年初)?$/,
  /^(19|20)\d{2}\s?[-/.年]\s?\d{1,2}\s?(月)?([-/.]\s?\d{1,2}\s?日?)?$/,
  /^(Q[1-4]|[1-4]Q|H[12]|[12]H)\s?[-' ]?\s?((19|20)?\d{2})?$/i,
  /^((19|20)\d{2})\s?(Q[1-4]|H[12]|[1-4]Q|[12]H)$/i,
  /^((19|20)\d{2}\s?年)?\s?(第?[一二三四1-4]季度|[上下]半年|前三季度|[1-9]|1[0-2]月)$/,
  /^(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s?((19|20)?\d{2})?$/i,
  /^(year|fiscal year|six months|three months|nine months|twelve months)\b.*((19|20)\d{2})/i,
  /^(as of|at|ended)\b.*(19|20)\d{2}$/i,
];

/** A label that names a period: a year, quarter, half, month or a fiscal-year heading. */
export function isPeriod(text: string): boolean {
  const t = text.trim().replace(/\s+/g, ' ');
  return t.length > 0 && t.length <= 40 && PERIOD.some((re) => re.test(t));
}

/** A unit stated in a caption, a header or a note: "(in millions)", "单位：万元", "(%)", "USD m". */
export function statedUnit(text: string): string | null {
  const t = text.normalize('NFKC');
  const cn = /单位\s*[:：]\s*([^\s,，;；)）]+)/.exec(t);
  if (cn) return cn[1]!;
  const en = /\b(?:in|amounts in|\$ in|USD in|dollars in)\s+(thousands|millions|billions|percent)\b(?:\s+of\s+([\w.$]+))?/i.exec(t);
  if (en) return en[2] ? `${en[1]!.toLowerCase()} of ${en[2]}` : en[1]!.toLowerCase();
  const paren = /[(（]\s*(%|[万亿千百]?元|[万亿]?美元|人民币[万亿]?元|[$€£¥]\s?(?:m|mn|bn|k|million|billion|thousand)?|(?:USD|RMB|EUR|CNY)\s?(?:m|mn|bn|k|million|billion|thousand)?|bp|x|times|倍|吨|万吨|亿千瓦时|km|kg|t|units|pcs|people|人|个|件|台|辆)\s*[)）]/i.exec(t);
  if (paren) return paren[1]!.replace(/\s+/g, ' ');
  return null;
}
