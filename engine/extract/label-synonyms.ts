import { normaliseLabel } from './field-text.js';

/**
 * Groups of labels that name the same thing on documents (zh and en). Used to match a schema field or a
 * prompt's field to the label printed on the page, and as the vocabulary of labels that open extraction
 * accepts without a colon.
 */
const GROUPS: readonly (readonly string[])[] = [
  ['发票号码', '发票号', 'invoice number', 'invoice no', 'invoice no.', 'invoice #', 'invoice id'],
  ['发票代码', 'invoice code'],
  ['开票日期', '发票日期', 'invoice date', 'date of issue', 'issue date', 'date issued'],
  ['金额', '总金额', '合计金额', '价税合计', '合计', '总计', '总额', 'total', 'total amount', 'amount', 'amount due', 'grand total', 'sum'],
  ['税额', '税金', 'tax', 'tax amount', 'vat'],
  ['姓名', '名字', '患者姓名', '病人姓名', '客户姓名', 'name', 'full name', 'patient name'],
  ['性别', '患者性别', 'sex', 'gender'],
  ['年龄', 'age'],
  ['出生日期', '出生年月', '生日', 'date of birth', 'birth date', 'dob', 'birthday'],
  ['电话', '联系电话', '电话号码', '手机', '手机号', '手机号码', '联系方式', 'phone', 'telephone', 'tel', 'mobile', 'phone number', 'contact number'],
  ['传真', 'fax'],
  ['地址', '住址', '联系地址', '通讯地址', 'address'],
  ['邮箱', '电子邮件', '电子邮箱', 'email', 'e-mail', 'email address'],
  ['邮编', '邮政编码', 'zip', 'zip code', 'postal code', 'postcode'],
  ['身份证号', '身份证号码', '公民身份号码', '证件号码', 'id number', 'id no', 'identity number'],
  ['公司名称', '单位名称', '企业名称', '名称', 'company', 'company name', 'organization', 'organisation'],
  ['日期', '时间', 'date'],
  ['编号', '号码', '单号', 'number', 'no', 'no.', 'reference', 'ref'],
  ['纳税人识别号', '税号', '纳税识别号', 'tax id', 'tax number', 'taxpayer id'],
  ['购买方', '购方', '买方', 'buyer', 'purchaser', 'bill to'],
  ['销售方', '销方', '卖方', 'seller', 'vendor', 'supplier'],
  ['统一社会信用代码', '社会信用代码', '信用代码', 'unified social credit code', 'credit code'],
  ['法定代表人', '法人代表', '法人', 'legal representative'],
  ['注册资本', 'registered capital'],
  ['成立日期', '注册日期', 'date of establishment', 'established', 'incorporation date'],
  ['营业期限', '经营期限', 'business term', 'term of operation'],
  ['经营范围', 'business scope', 'scope of business'],
  ['备注', '说明', 'remarks', 'remark', 'notes', 'note', 'comments'],
  ['签名', '签字', 'signature', 'signed'],
  ['职位', '职务', '岗位', 'position', 'title', 'job title'],
  ['部门', '科室', 'department', 'dept'],
  ['银行账号', '账号', '帐号', 'account number', 'account no', 'bank account'],
  ['开户行', '开户银行', 'bank', 'bank name'],
  ['收款人', 'payee'],
  ['付款人', 'payer'],
  ['数量', 'quantity', 'qty'],
  ['单价', 'unit price', 'price'],
  ['币种', 'currency'],
  ['国籍', 'nationality'],
  ['民族', 'ethnicity'],
  ['籍贯', 'native place'],
  ['婚姻状况', 'marital status'],
  ['职业', 'occupation'],
  ['学历', 'education'],
  ['入院时间', '入院日期', 'admission date', 'date of admission'],
  ['出院时间', '出院日期', 'discharge date', 'date of discharge'],
  ['住院号', '住院号码', 'inpatient number', 'admission number'],
  ['床号', 'bed', 'bed number', 'bed no'],
  ['诊断', '诊断结果', 'diagnosis'],
  ['from', '发件人', 'sender'],
  ['to', '收件人', 'recipient'],
  ['subject', '主题', 're'],
  ['cc', '抄送'],
];

const NORMALISED: string[][] = GROUPS.map((g) => g.map(normaliseLabel));

/** The normalised labels that may stand for a field (itself first, then its group's members). */
export function labelCandidates(field: string, hints: readonly string[] = []): string[] {
  const f = normaliseLabel(field);
  const out = new Set<string>([f, ...hints.map(normaliseLabel).filter((h) => h.length > 0 && h.length <= 20)]);
  for (const g of NORMALISED) {
    if (g.includes(f)) for (const l of g) out.add(l);
  }
  // A longer field name can end with a known label ("客户联系电话" -> 电话 group).
  if (out.size === 1 && [...f].length > 2) {
    for (const g of NORMALISED) {
      if (g.some((l) => [...l].length >= 2 && /[\u4e00-\u9fff]/.test(l) && f.endsWith(l))) for (const l of g) out.add(l);
    }
  }
  return [...out].filter((l) => l.length > 0);
}

/** Every label in the table, normalised: open extraction accepts these without a colon. */
export function knownLabels(): Set<string> {
  return new Set(NORMALISED.flat());
}
