import type { PageLayout } from '../../form-layout.js';
import { repairOrgCode } from '../../check-digits.js';
import { certificateType, type CertificateType } from '../document-type.js';
import { readTemplateFields, type TemplateField } from '../read-template-fields.js';
import { cleanCertificateValue, findIdentifier } from '../certificate-values.js';

export const OCC_FIELDS = ['组织机构代码', '机构名称', '机构类型', '地址', '有效期', '颁发单位', '登记号'] as const;

const FIELDS: TemplateField[] = [
  { name: '组织机构代码', labels: ['组织机构代码', '机构代码', '代码'], multiline: false, accept: /\d{4}/ },
  { name: '机构名称', labels: ['机构名称', '单位名称', '名称'], multiline: true, maxLines: 1 },
  { name: '机构类型', labels: ['机构类型', '类型'], multiline: false },
  { name: '地址', labels: ['地址', '住所'], multiline: true, maxLines: 3 },
  { name: '有效期', labels: ['有效期', '有效期限'], multiline: true, maxLines: 2, accept: /\d{4}/ },
  { name: '颁发单位', labels: ['颁发单位', '发证机关', '颁发机关', '发证单位'], multiline: false },
  { name: '登记号', labels: ['登记号'], multiline: false, accept: /\d{4}/ },
];

const STOP = ['法定代表人', '证书编号', '说明', '中华人民共和国', '组织机构代码证', '副本', '正本'];

/** The organisation kinds a certificate prints (GB 11714 register categories), longest first. */
const ORG_KINDS = ['民办非企业单位', '企业非法人', '事业非法人', '社团非法人', '机关非法人', '个体工商户', '企业法人', '事业法人', '社团法人', '机关法人', '其他'];

export interface CertificateFields {
  type: CertificateType;
  fields: Record<string, string>;
}

/** The seven fields of an organisation code certificate page. */
export function extractOrgCodeCertificate(layout: PageLayout): CertificateFields {
  const type = certificateType(layout);
  const fields: Record<string, string> = Object.fromEntries(OCC_FIELDS.map((f) => [f, '']));
  if (type !== '组织机构代码证') return { type, fields };
  const found = readTemplateFields(layout, FIELDS, STOP);
  for (const f of OCC_FIELDS) fields[f] = cleanCertificateValue(f, found.get(f)?.value ?? '');
  const printed = fields['组织机构代码']!.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const code = (printed.length >= 9 ? repairOrgCode(printed.slice(0, 9)) : null) ?? findIdentifier(layout, 9, repairOrgCode, true);
  fields['组织机构代码'] = code ?? fields['组织机构代码']!.replace(/\s+/g, '');
  const kind = ORG_KINDS.find((k) => fields['机构类型']!.replace(/[^\u4e00-\u9fff]/g, '').includes(k));
  if (kind) fields['机构类型'] = kind;
  if (fields['有效期']) fields['有效期'] = fields['有效期']!.replace(/\s+/g, '');
  if (fields['登记号']) fields['登记号'] = fields['登记号']!.replace(/\s+/g, '');
  return { type, fields };
}
