import type { EmrItem } from '../../../core/results.js';
import type { PageLayout } from '../../form-layout.js';
import { recordText } from './record-text.js';

export const EMR_FIELDS = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长', '主诉', '现病史', '既往史'] as const;

/** Section headings of Chinese inpatient records: a long field's text stops where one of these starts. */
const SECTIONS = [
  '主诉', '现病史', '既往史', '个人史', '婚育史', '婚姻史', '月经史', '生育史', '家族史', '体格检查', '专科检查', '专科情况',
  '辅助检查', '实验室检查', '初步诊断', '入院诊断', '出院诊断', '诊断依据', '鉴别诊断', '诊疗计划', '治疗计划', '病例特点',
  '体检摘要', '入院情况', '出院情况', '出院时情况', '诊疗经过', '住院经过', '出院医嘱', '出院带药', '手术经过', '过敏史',
  '传染病史', '预防接种史', '手术外伤史', '输血史', '一般健康状况', '疾病史', '生命体征', '住院期间医疗情况', '病程与治疗情况',
  '入院时简要病史', '补充病史', '查体', '医师签名', '记录时间', '时间', '姓名', '性别', '年龄', '入院时间', '出院时间', '入院日期', '出院日期',
];

const SHORT: Record<string, { labels: string[]; value: RegExp }> = {
  患者姓名: { labels: ['患者姓名', '病人姓名', '姓名'], value: /^[^\s:：,，;；。]{1,20}/u },
  患者性别: { labels: ['患者性别', '性别'], value: /^[男女]/u },
  年龄: { labels: ['年龄'], value: /^\d{1,3}\s*(?:岁|月|天)?(?:\s*\d{1,2}\s*(?:月|天))?/u },
  入院时间: { labels: ['入院时间', '入院日期'], value: /^\d{4}\s*[-./年]\s*\d{1,2}\s*[-./月]\s*\d{1,2}\s*日?(?:\s*\d{1,2}\s*[:：时]\s*\d{1,2}(?:\s*[:：分]\s*\d{1,2})?\s*(?:分|秒)?)?/u },
  出院时间: { labels: ['出院时间', '出院日期'], value: /^\d{4}\s*[-./年]\s*\d{1,2}\s*[-./月]\s*\d{1,2}\s*日?(?:\s*\d{1,2}\s*[:：时]\s*\d{1,2}(?:\s*[:：分]\s*\d{1,2})?\s*(?:分|秒)?)?/u },
  住院时长: { labels: ['住院天数', '住院时长', '实际住院天数', '住院日数'], value: /^\d{1,4}\s*天/u },
};

const LONG: Record<string, string[]> = {
  主诉: ['主诉'],
  现病史: ['现病史'],
  既往史: ['既往史'],
};

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function addHit(item: EmrItem, field: string, value: string): void {
  const v = value.trim();
  if (!v) return;
  const hits = (item[field] ??= []);
  const key = v.replace(/\s+/g, '');
  if (!hits.some((h) => h.value.replace(/\s+/g, '') === key)) hits.push({ value: v });
}

/** Calendar days between two printed dates, or null when either is not a date. */
export function calendarDays(from: string, to: string): number | null {
  const parse = (s: string): number | null => {
    const m = /(\d{4})\s*[-./年]\s*(\d{1,2})\s*[-./月]\s*(\d{1,2})/.exec(s);
    return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
  };
  const a = parse(from);
  const b = parse(to);
  if (a === null || b === null || b < a) return null;
  return Math.round((b - a) / 86_400_000);
}

/**
 * The medical-record fields from every page of every file of a task, merged: each field lists every
 * distinct value found, in document order. 住院时长 is computed (calendar days) when not printed.
 */
export function extractMedicalRecord(layoutsPerFile: PageLayout[][]): EmrItem {
  const item: EmrItem = Object.fromEntries(EMR_FIELDS.map((f) => [f, []]));
  const sectionAlt = SECTIONS.map(escape).join('|');
  const longLeading: [string, string][] = [];
  const longTrailing: [string, string][] = [];
  for (const layouts of layoutsPerFile) {
    const text = recordText(layouts);
    for (const [field, spec] of Object.entries(SHORT)) {
      const re = new RegExp(`(?:${spec.labels.map(escape).join('|')})\\s*[:：]?\\s*`, 'gu');
      for (const m of text.matchAll(re)) {
        const before = text[m.index! - 1] ?? '';
        // "患者姓名" already matched as 姓名's longer form; skip labels glued to a preceding word (e.g. 出院时间 in 预计出院时间 is fine).
        if (field === '患者姓名' && /[\u4e00-\u9fff]/.test(before) && !/[:：]/.test(before) && before !== '者' && before !== '人') continue;
        const after = text.slice(m.index! + m[0].length, m.index! + m[0].length + 60);
        const v = spec.value.exec(after);
        if (!v) continue;
        let value = v[0].trim();
        if (field === '患者姓名' && /^(?:性别|年龄|未|无)/u.test(value)) continue;
        if (field === '入院时间' || field === '出院时间') value = value.replace(/\s*([-./:：])\s*/g, '$1').replace(/\s+/g, ' ');
        addHit(item, field, value);
      }
    }
    const leading: [string, string][] = [];
    const trailing: [string, string][] = [];
    for (const [field, labels] of Object.entries(LONG)) {
      const re = new RegExp(`(?:${labels.map(escape).join('|')})\\s*[:：]\\s*`, 'gu');
      for (const m of text.matchAll(re)) {
        const start = m.index! + m[0].length;
        const rest = text.slice(start, start + 3000);
        const stop = new RegExp(`(?:\\n|\\s)(?:\\d{1,2}\\s*[、.．]\\s*)?(?:${sectionAlt})\\s*[:：]|(?<=[。；;])\\s*(?:\\d{1,2}\\s*[、.．]\\s*)?(?:${sectionAlt})\\s*[:：]|\\s\\d{1,2}\\s*、|(?:${sectionAlt})\\s*[:：]|\\n\\s*\\n`, 'u');
        const end = stop.exec(rest);
        let value = (end ? rest.slice(0, end.index) : rest.slice(0, 600)).replace(/\s*\n\s*/g, '').trim();
        // The number of the next item in a numbered summary ("…加重2月。 3、现病史:") is not part of the value.
        value = value.replace(/[;；,，]+$/u, '').replace(/(?<=[\u4e00-\u9fff。.\s])\d{1,2}\s*、\s*$|(?<=[。\s])\d{1,2}\s*[.．]\s*$/u, '').replace(/[;；,，]+$/u, '').trim();
        if (value.length < 2) continue;
        // A heading at the start of its line ("主诉:" in an admission note) outranks one inside a numbered summary.
        const lineStart = m.index === 0 || /\n\s*$/.test(text.slice(Math.max(0, m.index! - 4), m.index));
        (lineStart ? leading : trailing).push([field, value]);
      }
    }
    longLeading.push(...leading);
    longTrailing.push(...trailing);
  }
  for (const [field, value] of [...longLeading, ...longTrailing]) addHit(item, field, value);
  if (item['住院时长']!.length === 0) {
    const a = item['入院时间']![0]?.value;
    const b = item['出院时间']![0]?.value;
    const days = a && b ? calendarDays(a, b) : null;
    if (days !== null) item['住院时长'] = [{ value: `${days}天` }];
  }
  return item;
}
