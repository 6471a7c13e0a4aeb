import type { PageLayout } from '../form-layout.js';
import { pageText } from './read-template-fields.js';

export type CertificateType = '营业执照' | '组织机构代码证' | '其他';

const BL_LABELS = ['统一社会信用代码', '注册资本', '成立日期', '营业期限', '经营范围', '法定代表人', '住所', '登记机关', '注册号'];
const OCC_LABELS = ['机构名称', '机构类型', '颁发单位', '登记号', '有效期', '代码'];

/** What a page is: a business licence, an organisation code certificate, or something else. */
export function certificateType(layout: PageLayout): CertificateType {
  const text = pageText(layout).replace(/\s+/g, '');
  const bl = BL_LABELS.filter((l) => text.includes(l)).length;
  const occ = OCC_LABELS.filter((l) => text.includes(l)).length;
  if (/组织机构代码证|代码证/.test(text) && occ >= 2) return '组织机构代码证';
  if (/营业执照|执照/.test(text) && bl >= 2) return '营业执照';
  if (bl >= 4 && bl > occ) return '营业执照';
  if (occ >= 4) return '组织机构代码证';
  return '其他';
}
