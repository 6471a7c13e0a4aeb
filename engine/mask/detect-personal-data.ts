import type { MaskCategory } from './mask-categories.js';
import { surnameLength } from './chinese-surnames.js';
import { isValidResidentId } from './resident-id.js';

/** A piece of personal data found in a document's text: [start, end) in UTF-16 offsets. */
export interface PersonalDataSpan {
  start: number;
  end: number;
  category: MaskCategory;
  value: string;
}

const HAN = '\\u3400-\\u9fff\\uf900-\\ufaff';
const HAN_RE = new RegExp(`[${HAN}]`);
const SEP = '[\\s:：]*';

/**
 * Words that start a new label in forms: a value never runs into one of these.
 * (姓名张三性别男 has no separators when a table row is read as one line.)
 */
const LABEL_WORDS = [
  '姓名', '性别', '年龄', '出生', '民族', '婚姻', '婚否', '职业', '籍贯', '国籍', '住址', '地址', '现住址', '电话', '手机', '联系',
  '科别', '科室', '病区', '床号', '床位', '住院号', '病案号', '病历号', '门诊号', '流水号', '入院', '出院', '身份证', '证件',
  '关系', '工作单位', '单位', '日期', '时间', '诊断', '主诉', '记录', '签名', '医师', '医生', '护士', '血型', '邮编', '病史',
  '陈述者', '可靠', '费别', '付费', 'ID', '来源',
];
const LABEL_AHEAD = new RegExp(`^(?:${LABEL_WORDS.join('|')})`);

/** Words that look like a name after a cue but are not one (header rows, role words). */
const NOT_A_NAME = new RegExp(
  `^(?:${[
    '性别', '年龄', '签名', '签字', '日期', '时间', '姓名', '患者', '病人', '家属', '本人', '医师', '医生', '护士', '主任', '主治',
    '住院', '上级', '查房', '记录', '审核', '同意', '知情', '未婚', '已婚', '不详', '无', '已', '未', '拒绝', '自己', '本院',
    '科室', '联系', '关系', '电话', '地址', '工作', '单位', '职业', '民族', '汉族', '男', '女', '今日', '入院', '出院', '目前',
    '诊断', '病情', '神清', '精神', '一般', '情况', '病史', '主诉', '现病', '既往', '个人', '家族', '婚育', '月经', '体格',
    '专科', '辅助', '初步', '鉴别', '诊疗', '治疗', '手术', '护理', '会诊', '查体', '病程', '首次', '日常', '术后', '术前',
    '医嘱', '检查', '检验', '报告', '信息', '资料', '基本', '须知', '告知', '陪同', '陪护', '表示', '要求', '理解', '商量',
    '商议', '考虑', '决定', '到场', '在场', '签字', '电话', '手机', '关系', '住址', '地址', '来院', '代诉', '诉', '述', '及', '等', '均', '各', '其', '该', '此', '我', '您', '患', '病',
  ].join('|')})`,
);

/** Words that follow a name in running text (家属马骏陪同, 张三同意手术). */
const AFTER_NAME =
  /^(?:陪同|陪护|签字|签名|同意|表示|代诉|诉|要求|知情|拒绝|已|于|在|来|到|说|称|为|是|主任|医师|医生|护士|查房|指示|认为|建议|告知|交代|电话|手机|联系|之|的|等|及|和|与|男|女|先生|女士|患者|病人|本人|家属|签|讲|述|看|陪|带|送|接|去|回|也|都|就|对|把|被|向|从|将)/;

const PATIENT_NAME_CUES = '(?:患者姓名|病人姓名|患儿姓名|姓\\s*名|名字|Patient\\s*Name|Name)';
const FAMILY_CUES =
  '(?:家属姓名|家属签名|家属|联系人姓名|联系人|监护人|代理人|委托人|被委托人|授权人|配偶|丈夫|妻子|父亲|母亲|儿子|女儿|之子|之女|陈述者|供史者|亲属)';
const STAFF_CUES =
  '(?:副主任医师|主任医师|主治医师|住院医师|主管医师|经治医师|管床医师|上级医师|进修医师|实习医师|规培医师|会诊医师|申请医师|送检医师|报告医师|审核医师|记录医师|医师签名|医生签名|护士签名|主治医生|主管医生|住院医生|值班医生|主刀医生|主刀|术者|助手|麻醉师|麻醉医师|责任护士|护士长|护士|医师|医生|记录者|记录人|书写者|审核者|审核人|审签者|签名|签字|报告者|报告人|检查者|检查医师|操作者|填写人|填表人|录入者|Doctor|Physician|Attending|Nurse|Signed\\s*by|Dr\\.?)';

/** Role words that follow a staff member's name: 王建国主任医师, 李护士. */
const ROLE_AFTER =
  '(?:副主任医师|主任医师|主治医师|住院医师|主管医师|医师|医生|大夫|护士长|护士|主任|教授|副教授|院长|先生|女士|老师|同志|药师|技师)';
/** What stands in front of a role word without being a name (主治医师, 值班医生, 我院医生). */
const ROLE_PREFIX_NOT_NAME =
  /(?:主治|主任|副主任|住院|上级|经治|管床|责任|值班|主管|接诊|会诊|申请|送检|报告|进修|实习|规培|带组|床位|临床|专科|门诊|急诊|麻醉|手术|护理|该|本|我|外院|首诊|主刀|助理|执业|管理|科|院|经|主|副|及|和|与|、|请|由|向|通知|告知|联系|汇报|示|经上级|上级)$/;

const PLACEHOLDER_NAMES = /测试病人\s*\d+|TM员工名称TM/g;

const DATE =
  '(?:(?:19|20)\\d{2}\\s*(?:[-./年]\\s*\\d{1,2}\\s*(?:[-./月]\\s*\\d{1,2}\\s*日?|月)?|\\d{2}\\d{2}(?!\\d))|\\d{1,2}\\s*月\\s*\\d{1,2}\\s*[日号])';
const TIME = '(?:\\s*T?\\s*\\d{1,2}\\s*[:：时]\\s*\\d{1,2}(?:\\s*[:：分]\\s*\\d{1,2})?\\s*(?:分|秒)?)?';
const DATE_RE = new RegExp(
  `(?<!\\d)${DATE}${TIME}(?:\\s*[~～\\-至到]\\s*(?:\\d{1,2}(?!\\d)\\s*日?|${DATE}${TIME}))?`,
  'g',
);

/** Detects personal data in a document's text (all pages, lines joined by newlines). */
export function detectPersonalData(text: string, keep: (c: MaskCategory) => boolean = () => true): PersonalDataSpan[] {
  const spans: PersonalDataSpan[] = [];
  const add = (start: number, end: number, category: MaskCategory): void => {
    while (start < end && /\s/.test(text[start]!)) start++;
    while (end > start && /\s/.test(text[end - 1]!)) end--;
    if (end > start) spans.push({ start, end, category, value: text.slice(start, end) });
  };

  findNames(text, add);
  findIdentityNumbers(text, add);
  findPhones(text, add);
  findEmails(text, add);
  findAddresses(text, add);
  findRecordNumbers(text, add);
  findBedsAndWards(text, add);
  findWorkUnits(text, add);
  findDates(text, add);
  findSexAndAge(text, add);
  findStayLength(text, add);
  repeatKnownValues(text, spans, add);
  return mergeSpans(spans.filter((s) => keep(s.category)));
}

type Add = (start: number, end: number, category: MaskCategory) => void;

/** The value after a label: up to a delimiter, the next label word, or maxLen characters. */
function labelValueEnd(text: string, from: number, maxLen: number): number {
  let i = from;
  const limit = Math.min(text.length, from + maxLen);
  if (LABEL_AHEAD.test(text.slice(from, from + 6))) return from;
  while (i < limit) {
    const ch = text[i]!;
    if (/[\n，。；;|\t,]/.test(ch)) break;
    if (ch === ' ' && text[i + 1] === ' ') break;
    if (i > from && LABEL_AHEAD.test(text.slice(i, i + 6)) && /[\s:：]/.test(text[i - 1] ?? '')) break;
    if (i > from + 1 && /^(?:电话|手机|邮编|联系|性别|年龄|姓名|床号|住院号|身份证)/.test(text.slice(i, i + 4))) break;
    i++;
  }
  return i;
}

/** Skips the separator after a cue (spaces, colon, at most one line break). Returns the value start. */
function skipSeparator(text: string, i: number): number {
  let newlines = 0;
  while (i < text.length && /[\s:：]/.test(text[i]!)) {
    if (text[i] === '\n' && ++newlines > 1) break;
    i++;
  }
  return i;
}

function hanRunLength(text: string, i: number, max: number): number {
  let n = 0;
  while (i + n < text.length && n < max && HAN_RE.test(text[i + n]!)) n++;
  return n;
}

/** A Chinese name at i after a cue: 2-4 Han characters, cut at the next label word. */
function nameAt(text: string, i: number, requireSurname: boolean, plainAfterStrongCue = false): number {
  const placeholder = /^(?:测试病人\s*\d+|TM员工名称TM)/.exec(text.slice(i, i + 16));
  if (placeholder) return placeholder[0].length;
  const english = /^[A-Z][a-z]+(?:[ .-][A-Z][a-z]*\.?){0,3}/.exec(text.slice(i, i + 40));
  if (english && !/^(?:Male|Female|Sex|Age|Date|Name|None|Unknown)\b/.test(english[0])) return english[0].length;
  let run = hanRunLength(text, i, 8);
  if (run < 2) {
    // A name with a space inside (张 三) from a spaced-out form.
    const spaced = new RegExp(`^[${HAN}](?: [${HAN}]){1,3}(?![${HAN}])`).exec(text.slice(i, i + 8));
    return spaced && surnameLength(spaced[0]) > 0 ? spaced[0].length : 0;
  }
  const candidate = text.slice(i, i + run);
  if (NOT_A_NAME.test(candidate)) return 0;
  // Cut where a label starts (张三性别男), then where a word that follows names begins (马骏陪同).
  for (let k = 2; k < run; k++) {
    const rest = text.slice(i + k, i + k + 6);
    if (LABEL_AHEAD.test(rest) || /^[男女](?:[，,、\s\d]|性|$)/.test(rest)) {
      run = k;
      break;
    }
  }
  for (let k = 2; k < run; k++) {
    const word = AFTER_NAME.exec(text.slice(i + k, i + run));
    // A one-character word (说, 和, 在) cuts only when more text follows: 李春和 is a name, 张三说他 is not.
    if (word !== null && (word[0].length > 1 || run - k >= 2)) {
      run = k;
      break;
    }
  }
  // A word followed by a colon is the next label (光镜所见:, 麻醉方式:), not a name.
  if (/^[:：]/.test(text.slice(i + run, i + run + 1))) return 0;
  const sl = surnameLength(candidate);
  if (sl === 0) {
    // Without a known surname (a rare one, or one OCR misread: 滕 -> 膝) only a short word right after a
    // label, or one standing alone after 联系人/家属/姓名 (a delimiter follows), can be a name.
    const after = text.slice(i + run, i + run + 6);
    const standsAlone = /^(?:[，,、;；。\s)）]|$)/.test(after) || LABEL_AHEAD.test(after);
    return run <= 3 && (!requireSurname || (plainAfterStrongCue && standsAlone)) ? run : 0;
  }
  if (run > 4) run = sl === 2 ? 4 : 3;
  if (run === 4 && sl === 1) run = 3;
  return run;
}

function findNames(text: string, add: Add): void {
  for (const m of text.matchAll(PLACEHOLDER_NAMES)) {
    const cat: MaskCategory = m[0].startsWith('TM') ? '医生姓名' : '患者姓名';
    add(m.index, m.index + m[0].length, cat);
  }
  const cueGroups: Array<[string, MaskCategory]> = [
    [PATIENT_NAME_CUES, '患者姓名'],
    [FAMILY_CUES, '家属姓名'],
    [STAFF_CUES, '医生姓名'],
  ];
  for (const [cues, category] of cueGroups) {
    const re = new RegExp(`${cues}(?:\\s*[(（][^)）\\n]{0,6}[)）])?${SEP}`, 'gi');
    for (const m of text.matchAll(re)) {
      const hasColon = /[:：]/.test(m[0]) || /\n/.test(m[0]);
      const start = skipSeparator(text, m.index + m[0].length);
      // A role word used in running text (主治医师查房) needs a surname-led name; a label with a colon does not.
      let len = nameAt(text, start, !hasColon, category !== '医生姓名');
      if (len > 0 && !hasColon) {
        const after = text[start + len] ?? '';
        if (category !== '患者姓名' && HAN_RE.test(after) && !/^(?:主任|医师|医生|护士|查房|签名|记录|审核|指示|意见|同意)/.test(text.slice(start + len, start + len + 2))) {
          len = Math.min(len, 3);
          if (len < 2) len = 0;
        }
      }
      if (len > 0) add(start, start + len, category);
      // Several names after one label: 医师签名：张三、李四
      let j = start + len;
      while (len > 0 && /^[、,，/]/.test(text.slice(j, j + 1))) {
        const k = j + 1;
        const l2 = nameAt(text, k, true);
        if (l2 === 0) break;
        add(k, k + l2, category);
        j = k + l2;
      }
    }
  }
  // 患者张三，男，45岁
  const patientRe = new RegExp(`(?:患者|病人|患儿|病员|患方)(?=[${HAN}])`, 'g');
  for (const m of text.matchAll(patientRe)) {
    const i = m.index + m[0].length;
    const sl = surnameLength(text.slice(i, i + 2));
    if (sl === 0) continue;
    for (const n of [3, 2, 4]) {
      if (n <= sl || (n === 4 && sl !== 2)) continue;
      const cand = text.slice(i, i + n);
      if (!new RegExp(`^[${HAN}]+$`).test(cand) || NOT_A_NAME.test(cand) || NOT_A_NAME.test(cand.slice(sl))) continue;
      const after = text.slice(i + n, i + n + 2);
      if (/^(?:[，,、\s:：]|[男女](?:[，,、\s]|性)|$)/.test(after) || after === '') {
        add(i, i + n, '患者姓名');
        break;
      }
    }
  }
  // 王建国主任医师, 李医生
  const roleRe = new RegExp(ROLE_AFTER, 'g');
  for (const m of text.matchAll(roleRe)) {
    const end = m.index;
    for (const n of [3, 2, 4, 1]) {
      const s = end - n;
      if (s < 0) continue;
      const cand = text.slice(s, end);
      if (!new RegExp(`^[${HAN}]+$`).test(cand)) continue;
      const sl = surnameLength(cand);
      if (sl === 0 || (n === 1 && sl !== 1) || (n > 1 && n - sl > 2)) continue;
      if (ROLE_PREFIX_NOT_NAME.test(text.slice(Math.max(0, s - 4), end)) && n <= 2) continue;
      const before = text[s - 1] ?? '';
      // A name stands at a word boundary (line start, punctuation, a cue: 由张三医师); a three-character
      // surname-led name may follow running text (周四下午王建国主任专家门诊).
      if (before && HAN_RE.test(before) && !/[由请示经与和及向给被]/.test(before) && !(n === 3 && sl === 1)) continue;
      if ((NOT_A_NAME.test(cand) || NOT_A_NAME.test(cand.slice(sl))) && n > 1) continue;
      add(s, end, '医生姓名');
      break;
    }
  }
}

function findIdentityNumbers(text: string, add: Add): void {
  for (const m of text.matchAll(/(?<![\dA-Za-z])\d{6}\s?\d{8}\s?\d{3}[\dXx](?![\dA-Za-z])/g)) {
    if (isValidResidentId(m[0].replace(/\s/g, ''))) add(m.index, m.index + m[0].length, '身份证号');
  }
  const cue = /(?:公民身份号码|身份证号码|身份证号|身份证|证件号码|证件号|护照号码?|ID\s*No\.?|ID\s*Number)[\s:：]*([\dXx\s]{15,21})/gi;
  for (const m of text.matchAll(cue)) {
    const v = m[1]!;
    const s = m.index + m[0].length - v.length;
    add(s, s + v.length, '身份证号');
  }
}

function findPhones(text: string, add: Add): void {
  const mobile = /(?<![\d.])(?:\+?86[\s-]?)?1[3-9]\d[\s-]?\d{4}[\s-]?\d{4}(?![\d.])/g;
  for (const m of text.matchAll(mobile)) add(m.index, m.index + m[0].length, '电话');
  const landline = /(?<![\d.])(?:\(0\d{2,3}\)|（0\d{2,3}）|0\d{2,3}[\s-])\s?\d{7,8}(?:[-转]\d{1,5})?(?![\d.])/g;
  for (const m of text.matchAll(landline)) add(m.index, m.index + m[0].length, '电话');
  for (const m of text.matchAll(/(?<![\d.])(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?![\d.])/g)) add(m.index, m.index + m[0].length, '电话');
  const cue = /(?:联系电话|联系方式|电话号码|电话|手机号码|手机号|手机|座机|传真|Tel|Phone|Mobile|Fax)[\s:：]*((?:[+(（]?\d[\d\s\-()（）]{5,}\d))/gi;
  for (const m of text.matchAll(cue)) {
    const v = m[1]!;
    const s = m.index + m[0].length - v.length;
    add(s, s + v.length, '电话');
  }
}

function findEmails(text: string, add: Add): void {
  for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g)) add(m.index, m.index + m[0].length, '电子邮箱');
}

const ADDRESS_CUES =
  /(?:现住址|家庭住址|家庭地址|户籍地址|户口地址|联系地址|通讯地址|居住地址|工作地址|单位地址|住址|地址|居住地|户籍地|现住|家住|籍贯|出生地|邮编|邮政编码|Address)[\s:：]*/gi;

function findAddresses(text: string, add: Add): void {
  for (const m of text.matchAll(ADDRESS_CUES)) {
    const s = m.index + m[0].length;
    const e = labelValueEnd(text, s, 60);
    if (e > s && !/^(?:不详|无|同上)$/.test(text.slice(s, e).trim())) add(s, e, '地址');
  }
  // Addresses without a cue: administrative divisions followed by a street, village or number.
  const admin = `[${HAN}]{2,7}(?:省|自治区|特别行政区)`;
  const city = `[${HAN}]{1,7}(?:市|自治州|州|盟|地区)`;
  const county = `[${HAN}]{1,7}(?:区|县|旗|市)`;
  const town = `[${HAN}\\d]{1,8}(?:街道|镇|乡|苏木)`;
  const street = `[${HAN}\\d]{1,12}?(?:大道|大街|路|街|巷|弄|胡同|村|组|小区|社区|花园|公寓|大厦|新村|里)`;
  const number = `(?:\\s*[\\d\\-一二三四五六七八九十甲乙丙]+\\s*(?:号楼|号院|号|弄|栋|幢|座|单元|室|楼|层|组|排|户))*(?:\\s*\\d{1,5}(?![\\d.]))?`;
  const re = new RegExp(
    `(?:${admin})?(?:${city})?(?:${county})?(?:${town})?(?:${street})${number}`,
    'g',
  );
  for (const m of text.matchAll(re)) {
    const v = m[0];
    const hasAdmin = new RegExp(`(?:省|自治区|市|州|区|县|旗|镇|乡|街道)`).test(v.slice(0, Math.max(0, v.length - 2)));
    const hasNumber = /\d\s*(?:号|弄|栋|幢|单元|室)/.test(v) || /[一二三四五六七八九十]+(?:号|组)/.test(v);
    if ((hasAdmin && (hasNumber || /(?:路|街|巷|村|小区|社区|胡同)/.test(v))) || (hasNumber && /(?:路|街|巷|弄|胡同|村)/.test(v))) {
      add(m.index, m.index + v.length, '地址');
    }
  }
}

const RECORD_CUES: Array<[RegExp, MaskCategory]> = [
  [/(?:住院流水号|住院号|住院编号|住院次数号|流水号|就诊号|就诊流水号|入院登记号|登记号|Admission\s*No\.?|Inpatient\s*No\.?)/gi, '住院号'],
  [/(?:病案号|病案编号|病历号|病历编号|档案号|MRN|Medical\s*Record\s*(?:No\.?|Number))/gi, '病案号'],
  [/(?:门诊号|门急诊号|急诊号|就诊卡号|诊疗卡号|门诊卡号|Outpatient\s*No\.?)/gi, '门诊号'],
  [/(?:医保卡号|医保号|社保卡号|社保号|医疗证号|健康卡号|卡号|患者ID|病人ID|患者编号|病人编号|ID号|检查号|影像号|放射号|病理号|标本号|条码号|申请单号|报告单号|检验号|样本号|PatientID|Patient\s*ID|(?<![A-Za-z])ID(?![A-Za-z]))/gi, '编号'],
];

function findRecordNumbers(text: string, add: Add): void {
  for (const [re, category] of RECORD_CUES) {
    for (const m of text.matchAll(re)) {
      const s0 = skipSeparator(text, m.index + m[0].length);
      const v = /^[A-Za-z]{0,4}[\-]?\d[\dA-Za-z\-]{1,30}/.exec(text.slice(s0, s0 + 40));
      if (v) add(s0, s0 + v[0].length, category);
    }
  }
  // Long digit strings anywhere are identifiers (record, card, file numbers), unless they are dates.
  for (const m of text.matchAll(/(?<![\dA-Za-z.])[A-Za-z]{0,3}\d{8,}(?![\d.])/g)) {
    if (/^(?:19|20)\d{6}$/.test(m[0]) && Number(m[0].slice(4, 6)) <= 12) continue;
    add(m.index, m.index + m[0].length, '编号');
  }
}

function findBedsAndWards(text: string, add: Add): void {
  for (const m of text.matchAll(/(?:床位号|床号|床位|Bed\s*(?:No\.?)?)[\s:：]*([A-Za-z]?[+＋]?\d[\dA-Za-z\-+]*)/gi)) {
    const v = m[1]!;
    add(m.index + m[0].length - v.length, m.index + m[0].length, '床号');
  }
  for (const m of text.matchAll(/(?<![\d.])[+＋]?\d{1,5}\s*(?:加床|床)(?![旁边头尾上单])/g)) add(m.index, m.index + m[0].length, '床号');
  for (const m of text.matchAll(/(?:病区名称|病区|病房号|病房|病室|房间号|Ward)[\s:：]*/gi)) {
    const s = m.index + m[0].length;
    if (HAN_RE.test(text[m.index - 1] ?? '') && !/[:：]/.test(m[0])) continue; // 呼吸八楼病区 is a value, not a label
    if (s === m.index + m[0].replace(/[\s:：]+$/, '').length) continue; // running text (本病区), no label separator
    const e = labelValueEnd(text, s, 16);
    if (e > s) add(s, e, '病区');
  }
  for (const m of text.matchAll(/(?:科别|科室|所在科室|病区)[\s:：]*([^\s,，:：;；。]{2,16}病区)/g)) {
    const v = m[1]!;
    add(m.index + m[0].length - v.length, m.index + m[0].length, '病区');
  }
  for (const m of text.matchAll(new RegExp(`[${HAN}]{0,8}[\\d一二三四五六七八九十]+\\s*(?:楼|层)?\\s*[${HAN}]{0,2}病区`, 'g'))) {
    add(m.index, m.index + m[0].length, '病区');
  }
}

function findWorkUnits(text: string, add: Add): void {
  for (const m of text.matchAll(/(?:工作单位|单位名称|所在单位|就职单位|服务单位|Employer)[\s:：]*/gi)) {
    const s = m.index + m[0].length;
    const e = labelValueEnd(text, s, 40);
    if (e > s && !/^(?:无|不详)$/.test(text.slice(s, e).trim())) add(s, e, '工作单位');
  }
}

function findDates(text: string, add: Add): void {
  for (const m of text.matchAll(DATE_RE)) {
    const v = m[0];
    // A bare four-digit year or YYYYMM number is no date; require a separator or 年/月/日.
    if (!/[-./年月日:：]/.test(v)) {
      if (!/^(?:19|20)\d{6}$/.test(v.trim())) continue;
    }
    if (/^\d{4}\s*[./]\s*\d{1,2}$/.test(v.trim())) {
      // 2.5/3 style fractions are not dates; a yyyy.m pair is (year-month of birth, of a past illness).
    }
    const before = text.slice(Math.max(0, m.index - 14), m.index);
    const line = before.slice(before.lastIndexOf('\n') + 1);
    let category: MaskCategory = '日期';
    const after = text.slice(m.index + v.length, m.index + v.length + 8);
    if (/(?:出生|生日|DOB|Birth)[^\n，。,;；]{0,6}$/i.test(line)) category = '出生日期';
    else if (/^[ \t]*(?:在[^\n，。,]{0,4})?(?:入院|收入|收住|入科)(?!时间|日期|诊断|记录|情况)/.test(after)) category = '入院时间';
    else if (/^[ \t]*(?:出院|离院)(?!时间|日期|诊断|记录|小结|情况|医嘱)/.test(after)) category = '出院时间';
    else if (/(?:入院|入科|Admi(?:ssion|tted))[^\n，。,;；出]{0,6}$/i.test(line)) category = '入院时间';
    else if (/(?:出院|离院|Discharge)[^\n，。,;；入]{0,6}$/i.test(line)) category = '出院时间';
    add(m.index, m.index + v.length, category);
  }
  for (const m of text.matchAll(/(?:Date\s*of\s*Birth|DOB|Admission\s*Date|Discharge\s*Date|Date)[\s:：]*(\d{1,2}[/-]\d{1,2}[/-]\d{2,4}|[A-Z][a-z]{2,8}\.?\s+\d{1,2},?\s+\d{4})/g)) {
    const v = m[1]!;
    const label = m[0].slice(0, m[0].length - v.length);
    const category: MaskCategory = /birth|DOB/i.test(label) ? '出生日期' : /admission/i.test(label) ? '入院时间' : /discharge/i.test(label) ? '出院时间' : '日期';
    add(m.index + m[0].length - v.length, m.index + m[0].length, category);
  }
}

function findSexAndAge(text: string, add: Add): void {
  for (const m of text.matchAll(/(?:性\s*别|Sex|Gender)[\s:：]*(男性|女性|男|女|Male|Female|M|F)(?![A-Za-z])/gi)) {
    const v = m[1]!;
    add(m.index + m[0].length - v.length, m.index + m[0].length, '患者性别');
  }
  for (const m of text.matchAll(/(?<=(?:患者|病人|患儿|病员)[，,、]?)(?:男|女)(?=[，,、\s]|性|\d)/g)) add(m.index, m.index + 1, '患者性别');
  for (const m of text.matchAll(/(?<![\u4e00-\u9fff])(?:男|女)(?:性)?(?=[，,、\s]*\d{1,3}\s*(?:岁|周岁))/g)) add(m.index, m.index + m[0].length, '患者性别');
  for (const m of text.matchAll(/(?<=[，,、\s(（])(?:男|女)(?=[，,、\s)）])/g)) add(m.index, m.index + 1, '患者性别');
  for (const m of text.matchAll(/(?:年\s*龄|Age)[\s:：]*(\d{1,3}\s*(?:岁|周岁|个月|月|天|Y|y|years?)?(?:\s*\d{1,2}\s*(?:个月|月|天))?)/gi)) {
    const v = m[1]!;
    add(m.index + m[0].length - v.length, m.index + m[0].length, '年龄');
  }
  for (const m of text.matchAll(/(?<![\d.])\d{1,3}\s*(?:周岁|岁)(?:\s*\d{1,2}\s*(?:个月|月))?/g)) add(m.index, m.index + m[0].length, '年龄');
  for (const m of text.matchAll(/(?<![\d.])\d{1,3}[-\s]?(?:year|yr)s?[-\s]old/gi)) add(m.index, m.index + m[0].length, '年龄');
}

function findStayLength(text: string, add: Add): void {
  for (const m of text.matchAll(/(?:住院(?:时长|天数|日数|时间)|实际住院|共住院|住院|Length\s*of\s*Stay|LOS)[\s:：共]*(\d{1,4}\s*(?:天|日|d|days?)|\d{1,4}(?=\s*$|\s*[\n，。;；]))/gim)) {
    const v = m[1]!;
    add(m.index + m[0].length - v.length, m.index + m[0].length, '住院时长');
  }
}

/** A name or number found once is masked wherever else it appears (page headers, signatures, later notes). */
function repeatKnownValues(text: string, spans: PersonalDataSpan[], add: Add): void {
  const repeatable = new Map<string, MaskCategory>();
  for (const s of spans) {
    const v = s.value.replace(/\s+/g, '');
    const isName = s.category === '患者姓名' || s.category === '医生姓名' || s.category === '家属姓名';
    const isNumber = ['身份证号', '电话', '住院号', '病案号', '门诊号', '编号'].includes(s.category);
    if ((isName && v.length >= 2) || (isNumber && v.length >= 5)) {
      if (!repeatable.has(s.value)) repeatable.set(s.value, s.category);
      if (v !== s.value && !repeatable.has(v)) repeatable.set(v, s.category);
    }
  }
  for (const [value, category] of repeatable) {
    let i = text.indexOf(value);
    while (i >= 0) {
      const before = text[i - 1] ?? '';
      const after = text[i + value.length] ?? '';
      const digitsGlued = /\d/.test(value[0]!) && /\d/.test(before) || /\d/.test(value[value.length - 1]!) && /\d/.test(after);
      if (!digitsGlued) add(i, i + value.length, category);
      i = text.indexOf(value, i + value.length);
    }
  }
  // A patient's given name used alone (建国说) is rare in records; the surname with a title (张先生) is caught by role words.
}

/** Sorts spans and merges overlapping ones; the earlier-found category wins for an overlap. */
function mergeSpans(spans: PersonalDataSpan[]): PersonalDataSpan[] {
  const priority: Record<string, number> = {
    患者姓名: 0, 医生姓名: 1, 家属姓名: 1, 身份证号: 2, 电话: 3, 电子邮箱: 3, 住院号: 4, 病案号: 4, 门诊号: 4, 床号: 5,
    出生日期: 5, 入院时间: 6, 出院时间: 6, 住院时长: 6, 地址: 7, 工作单位: 7, 病区: 8, 编号: 8, 患者性别: 9, 年龄: 9, 日期: 10,
  };
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: PersonalDataSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      if (s.end > last.end) {
        // Partial overlap: keep both, trimmed, so that each keeps its category.
        out.push({ ...s, start: last.end, value: s.value.slice(last.end - s.start) });
      } else if ((priority[s.category] ?? 99) < (priority[last.category] ?? 99) && s.start === last.start && s.end === last.end) {
        out[out.length - 1] = s;
      }
      continue;
    }
    out.push(s);
  }
  return out;
}
