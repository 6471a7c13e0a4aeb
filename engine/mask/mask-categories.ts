/**
 * What the masker finds, by category. The spec's six json_schema fields keep their names; the other
 * categories carry clear Chinese names. Direct identifiers are masked whatever fields were asked for.
 */
export type MaskCategory =
  | '患者姓名'
  | '医生姓名'
  | '家属姓名'
  | '患者性别'
  | '年龄'
  | '入院时间'
  | '出院时间'
  | '住院时长'
  | '出生日期'
  | '日期'
  | '身份证号'
  | '电话'
  | '电子邮箱'
  | '地址'
  | '住院号'
  | '病案号'
  | '门诊号'
  | '编号'
  | '床号'
  | '病区'
  | '工作单位';

export const DEFAULT_MASK_FIELDS = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长'] as const;

/** Always masked: names, identity and record numbers, contact data, addresses, beds and wards, birth dates. */
const ALWAYS: ReadonlySet<MaskCategory> = new Set<MaskCategory>([
  '患者姓名', '医生姓名', '家属姓名', '出生日期', '身份证号', '电话', '电子邮箱', '地址', '住院号', '病案号', '门诊号',
  '编号', '床号', '病区', '工作单位',
]);

/**
 * Categories to mask for the requested json_schema field names. A field that names a category masks it;
 * asking for either stay date also masks the other dates of the record (exam and report dates give the stay away).
 * Field names outside the known categories are matched to the closest category by keyword.
 */
export function categoriesToMask(fields: readonly string[]): Set<MaskCategory> {
  const out = new Set<MaskCategory>(ALWAYS);
  for (const raw of fields) {
    const f = raw.trim();
    if (/性别|sex|gender/i.test(f)) out.add('患者性别');
    if (/年龄|age/i.test(f)) out.add('年龄');
    if (/入院/.test(f) && /时间|日期/.test(f)) out.add('入院时间');
    if (/出院/.test(f) && /时间|日期/.test(f)) out.add('出院时间');
    if (/住院(时长|天数)|stay|length/i.test(f)) out.add('住院时长');
    if (/^(日期|时间|date|time)$/i.test(f)) out.add('日期');
  }
  if (out.has('入院时间') || out.has('出院时间')) out.add('日期');
  return out;
}
