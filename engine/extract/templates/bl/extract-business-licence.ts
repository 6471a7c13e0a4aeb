import type { PageLayout } from '../../form-layout.js';
import { repairCreditCode } from '../../check-digits.js';
import { certificateType, type CertificateType } from '../document-type.js';
import { readTemplateFields, type TemplateField } from '../read-template-fields.js';
import { cleanCertificateValue, firstDate, findIdentifier } from '../certificate-values.js';

export const BL_FIELDS = ['名称', '统一社会信用代码', '注册资本', '类型', '成立日期', '法定代表人', '营业期限', '经营范围', '住所'] as const;

const FIELDS: TemplateField[] = [
  { name: '名称', labels: ['名称', '企业名称', '公司名称'], multiline: true, maxLines: 1 },
  { name: '统一社会信用代码', labels: ['统一社会信用代码', '社会信用代码'], multiline: false, accept: /[0-9A-Z]{8}/i },
  { name: '注册资本', labels: ['注册资本', '注册资金'], multiline: false },
  { name: '类型', labels: ['类型', '主体类型', '商事主体类型', '市场主体类型', '企业类型', '公司类型'], multiline: true, maxLines: 1 },
  { name: '成立日期', labels: ['成立日期', '注册日期'], multiline: false, accept: /\d{4}/ },
  { name: '法定代表人', labels: ['法定代表人姓名', '法定代表人', '负责人姓名', '负责人', '经营者姓名', '经营者', '执行事务合伙人', '投资人'], multiline: false },
  { name: '营业期限', labels: ['营业期限', '经营期限', '合伙期限'], multiline: false, accept: /\d{4}|长期|永久/ },
  { name: '经营范围', labels: ['经营范围'], multiline: true, maxLines: 14 },
  { name: '住所', labels: ['住所', '经营场所', '营业场所', '主要经营场所'], multiline: true, maxLines: 3 },
];

const STOP = ['登记机关', '注册号', '组成形式', '实收资本', '发照日期', '核准日期', '国家企业信用信息公示系统', '市场主体应当', '营业执照', '副本', '正本', '编号', '证照编号'];

export interface LicenceFields {
  type: CertificateType;
  fields: Record<string, string>;
}

/** The nine fields of a business licence page (post-2015 credit-code format or the older 注册号 format). */
export function extractBusinessLicence(layout: PageLayout): LicenceFields {
  const type = certificateType(layout);
  const fields: Record<string, string> = Object.fromEntries(BL_FIELDS.map((f) => [f, '']));
  if (type !== '营业执照') return { type, fields };
  const found = readTemplateFields(layout, FIELDS, STOP);
  for (const f of BL_FIELDS) fields[f] = cleanCertificateValue(f, found.get(f)?.value ?? '');
  const printed = fields['统一社会信用代码']!.replace(/[^0-9A-Za-z]/g, '');
  const code = (printed.length >= 18 ? repairCreditCode(printed.slice(0, 18)) : null) ?? findIdentifier(layout, 18, repairCreditCode);
  fields['统一社会信用代码'] = code ?? (printed.length === 18 ? printed.toUpperCase() : '');
  if (fields['成立日期']) fields['成立日期'] = firstDate(fields['成立日期']) ?? fields['成立日期']!;
  return { type, fields };
}
