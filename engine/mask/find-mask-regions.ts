import type { BBox } from '../core/geometry.js';
import type { DocumentPages } from '../core/page.js';
import type { MaskedRegion } from '../core/results.js';
import { detectPersonalData, type PersonalDataSpan } from './detect-personal-data.js';
import { buildDocumentText, spanToLinePieces } from './document-text.js';
import { categoriesToMask, type MaskCategory } from './mask-categories.js';
import { lineSpanBox } from './span-boxes.js';

/** Order in which masked_fields lists categories: the spec's six first, then the direct identifiers. */
const FIELD_ORDER: MaskCategory[] = [
  '患者姓名', '患者性别', '入院时间', '出院时间', '年龄', '住院时长', '医生姓名', '家属姓名', '出生日期', '身份证号', '电话',
  '电子邮箱', '地址', '住院号', '病案号', '门诊号', '编号', '床号', '病区', '工作单位', '日期',
];

export interface MaskPlan {
  spans: PersonalDataSpan[];
  regions: MaskedRegion[];
  maskedFields: string[];
}

/** The boxes to black out on each page for the requested fields, and the categories they belong to. */
export function findMaskRegions(doc: DocumentPages, fields: readonly string[]): MaskPlan {
  const wanted = categoriesToMask(fields);
  const dt = buildDocumentText(doc);
  const spans = detectPersonalData(dt.text, (c) => wanted.has(c));
  const regions: MaskedRegion[] = [];
  const found = new Set<MaskCategory>();
  for (const span of spans) {
    for (const piece of spanToLinePieces(dt, span.start, span.end)) {
      const page = doc.pages[piece.page]!;
      const line = page.lines[piece.line]!;
      const bbox: BBox = lineSpanBox(line, piece.start, piece.end, page.width, page.height);
      regions.push({ page_number: page.pageNumber, bbox, category: span.category });
      found.add(span.category);
    }
  }
  return { spans, regions, maskedFields: FIELD_ORDER.filter((c) => found.has(c)) };
}
