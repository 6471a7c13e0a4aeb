import { describe, expect, it } from 'vitest';
import { detectPersonalData } from '../../../engine/mask/detect-personal-data.js';
import { buildDocumentText, spanToLinePieces } from '../../../engine/mask/document-text.js';
import { findMaskRegions } from '../../../engine/mask/find-mask-regions.js';
import { isValidResidentId } from '../../../engine/mask/resident-id.js';
import { drawnDocument, loadTruth } from './mask-fixtures.js';

const LAYOUTS = ['form', 'narrative', 'grid'];
const SIX = ['患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长'];

describe('resident ID check digit (GB 11643)', () => {
  it('accepts the fixture IDs and refuses a changed check character', () => {
    for (const layout of LAYOUTS) {
      const id = loadTruth(layout).values.find((v) => v.category === '身份证号')!.value;
      expect(isValidResidentId(id)).toBe(true);
      const wrong = id.slice(0, 17) + (id[17] === '0' ? '1' : '0');
      expect(isValidResidentId(wrong)).toBe(false);
    }
    expect(isValidResidentId('11010519491231002X')).toBe(true);
    expect(isValidResidentId('110105194912310021')).toBe(false);
  });
});

describe.each(LAYOUTS)('detection on the %s layout', (layout) => {
  const truth = loadTruth(layout);
  const doc = drawnDocument(truth);
  const plan = findMaskRegions(doc, SIX);
  const dt = buildDocumentText(doc);
  const { text } = dt;
  // Coverage per drawn line character (a grid's values are also read after their labels, elsewhere in the text).
  const covered = new Set<string>();
  for (const s of plan.spans) for (const p of spanToLinePieces(dt, s.start, s.end)) for (let i = p.start; i < p.end; i++) covered.add(`${p.line}:${i}`);

  it.each(truth.values.map((v) => [v.category, v.value]))('masks %s %s wherever it appears', (_category, value) => {
    let occurrences = 0;
    doc.pages[0]!.lines.forEach((line, li) => {
      for (let i = line.text.indexOf(value); i >= 0; i = line.text.indexOf(value, i + 1)) {
        occurrences++;
        const uncovered = [...value].filter((_, k) => !covered.has(`${li}:${i + k}`));
        expect(uncovered.join('')).toBe('');
      }
    });
    expect(occurrences).toBeGreaterThan(0);
  });

  it('names the categories it masked', () => {
    for (const c of ['患者姓名', '身份证号', '电话', '地址', '住院号', '医生姓名', '患者性别', '年龄', '入院时间', '出院时间']) {
      expect(plan.maskedFields).toContain(c);
    }
  });

  it('leaves clinical text readable', () => {
    const masked = plan.spans.map((s) => s.value).join('|');
    for (const word of ['出院诊断', '肺炎', '冠脉造影', '糖尿病', '主诉', '抗血小板']) {
      if (text.includes(word)) expect(masked).not.toContain(word);
    }
  });
});

describe('grid cells that OCR merged into one line', () => {
  it('reads the value under its label from the merged line', () => {
    const mk = (text: string, bbox: [number, number, number, number]) => ({
      text, bbox, runs: [{ text, bbox, fontSize: 24 }], fontSize: 24, bold: false, source: 'ocr' as const, confidence: 0.9,
    });
    const doc = {
      format: 'png' as const,
      pages: [{
        pageNumber: 1, width: 1190, height: 1684, rotation: 0, ocr: true, rules: [], images: [],
        lines: [
          mk('家庭住址', [344, 495, 433, 519]), mk('联系人', [601, 495, 669, 519]), mk('黑龙江省七台河市桃山区|韦春和', [345, 530, 668, 556]),
          mk('联系人电话', [859, 495, 969, 520]), mk('0451-6000000', [860, 532, 1001, 554]),
        ],
      }],
    };
    const plan = findMaskRegions(doc, []);
    expect(plan.spans.filter((s) => s.category === '家属姓名').map((s) => s.value)).toContain('韦春和');
    // The box of the name lies in the right part of the merged line, under 联系人.
    const box = plan.regions.find((r) => r.category === '家属姓名')!.bbox;
    expect(box[0]).toBeGreaterThan(560);
    expect(box[2]).toBeGreaterThanOrEqual(668);
  });

  it('splits merged cells at the gap OCR left between them', () => {
    const mk = (text: string, bbox: [number, number, number, number]) => ({
      text, bbox, runs: [{ text, bbox, fontSize: 24 }], fontSize: 24, bold: false, source: 'ocr' as const, confidence: 0.9,
    });
    const doc = {
      format: 'png' as const,
      pages: [{
        pageNumber: 1, width: 1190, height: 1684, rotation: 0, ocr: true, rules: [], images: [],
        lines: [
          mk('家庭住址', [344, 531, 433, 555]), mk('联系人', [601, 531, 670, 555]), mk('上海市徐汇区漕溪北路39 滕国庆', [346, 568, 668, 590]),
          mk('8号12楼', [342, 603, 426, 627]),
        ],
      }],
    };
    const spans = findMaskRegions(doc, []).spans;
    expect(spans.filter((s) => s.category === '家属姓名').map((s) => s.value)).toContain('滕国庆');
    // The address wraps inside its cell: the second line is masked as address too.
    expect(spans.filter((s) => s.category === '地址').map((s) => s.value)).toEqual(expect.arrayContaining(['上海市徐汇区漕溪北路39', '8号12楼']));
  });
});

describe('detection of single values', () => {
  const found = (t: string): Array<[string, string]> => detectPersonalData(t).map((s) => [s.category, s.value]);

  it('finds placeholder names from de-identified sources', () => {
    const r = found('时间:2019-01-08 TM员工名称TM 主治医生查房\n患者信息:姓名:测试病人0279 性别:男 年龄:41');
    expect(r).toContainEqual(['医生姓名', 'TM员工名称TM']);
    expect(r).toContainEqual(['患者姓名', '测试病人0279']);
    expect(r).toContainEqual(['患者性别', '男']);
    expect(r).toContainEqual(['年龄', '41']);
    expect(r.map((x) => x[1])).not.toContain('信息');
  });

  it('finds record numbers, beds and wards after their labels', () => {
    const r = found('病区名称:呼吸八楼病区 床号:8551 住院号:z83531 门诊号：MZ0012345');
    expect(r).toContainEqual(['住院号', 'z83531']);
    expect(r).toContainEqual(['床号', '8551']);
    expect(r).toContainEqual(['门诊号', 'MZ0012345']);
    expect(r).toContainEqual(['病区', '呼吸八楼病区']);
  });

  it('finds a name before a role word and a name repeated later', () => {
    const r = found('宋志远主任医师查房：同意目前治疗。\n患者诉胸闷好转。\n上级医师：宋志远');
    expect(r.filter(([c, v]) => c === '医生姓名' && v === '宋志远').length).toBe(2);
  });

  it('finds English identifiers', () => {
    const r = found('Patient Name: John Carter  DOB: 03/14/1971  Phone: (415) 555-0132  MRN: 00482913');
    expect(r).toContainEqual(['患者姓名', 'John Carter']);
    expect(r).toContainEqual(['出生日期', '03/14/1971']);
    expect(r).toContainEqual(['病案号', '00482913']);
    expect(r.some(([c, v]) => c === '电话' && v.includes('555-0132'))).toBe(true);
  });

  it('does not take the next label or an empty signature line for a name', () => {
    const r = found('副主任医师: 光镜所见:肾组织3条\n医生签名:\n最后一日查房/病程记录\n手术者姓名: 韦春和 麻醉方式: 局麻');
    const names = r.filter(([c]) => c.endsWith('姓名')).map(([, v]) => v);
    expect(names).toEqual(['韦春和']);
  });

  it('takes a name after 联系人 even when OCR misread its surname, but not a verb', () => {
    const r = found('家庭住址上海市徐汇区漕溪北路398号12楼,联系人膝国庆,联系人电话021-6123457。家属陪同，家属表示理解。');
    expect(r.filter(([c]) => c === '家属姓名').map(([, v]) => v)).toEqual(['膝国庆']);
  });

  it('does not take ordinary words after 患者 for a name', () => {
    const r = found('患者于上感后出现咳嗽，患者神清，精神可。');
    expect(r.filter(([c]) => c === '患者姓名')).toEqual([]);
  });
});
