import type { LayoutDetection } from '../../../core/page.js';

/**
 * What a layout model's class name means in the spec's vocabulary. Names are compared lower-cased with spaces
 * and hyphens read as underscores, so `Section-header`, `plain text` and `Page-footer` all match.
 *
 * | model labels                                                                  | becomes                 |
 * |-------------------------------------------------------------------------------|-------------------------|
 * | doc_title, document_title                                                     | Title, level 1          |
 * | title, paragraph_title, section_header, heading, subtitle                     | Title (level by font)   |
 * | text, plain_text, abstract, content, list, list_item, reference(_content),     | Text                    |
 * | aside_text, algorithm, code, formula, isolate_formula, equation,               |                         |
 * | formula_number, number_list, other / unknown labels                           |                         |
 * | table                                                                         | Table (cells by rules)  |
 * | image, figure, picture, chart, seal, diagram                                  | Figure                  |
 * | figure_title, table_title, chart_title, caption, figure_caption,              | Text, role caption      |
 * | table_caption, formula_caption                                                |                         |
 * | footnote, table_footnote, vision_footnote, note                               | Text, role note         |
 * | header, footer, page_header, page_footer, page_number, number, abandon,       | furniture (not in tree) |
 * | header_image, footer_image                                                    |                         |
 *
 * The spec has no formula or seal type: formulas are read as text (their OCR'd characters), seals as figures.
 */
export type LabelMeaning = Pick<LayoutDetection, 'type' | 'role' | 'level'>;

const TABLE: [string[], LabelMeaning][] = [
  [['doc_title', 'document_title'], { type: 'Title', level: 1 }],
  [['title', 'paragraph_title', 'section_header', 'section_title', 'heading', 'subtitle', 'sub_title'], { type: 'Title' }],
  [['table'], { type: 'Table' }],
  [['image', 'figure', 'picture', 'chart', 'seal', 'diagram', 'photo'], { type: 'Figure' }],
  [['figure_title', 'table_title', 'chart_title', 'caption', 'figure_caption', 'table_caption', 'formula_caption', 'image_caption'], { type: 'Text', role: 'caption' }],
  [['footnote', 'table_footnote', 'vision_footnote', 'note', 'figure_footnote'], { type: 'Text', role: 'note' }],
  [['header', 'footer', 'page_header', 'page_footer', 'page_number', 'number', 'abandon', 'header_image', 'footer_image'], { type: 'Text', role: 'furniture' }],
];

const BY_NAME = new Map<string, LabelMeaning>(TABLE.flatMap(([names, meaning]) => names.map((n) => [n, meaning] as const)));

export function normaliseLabel(label: string): string {
  return label.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/** The meaning of one class name; anything not in the table is body text. */
export function labelMeaning(label: string): LabelMeaning {
  return { ...(BY_NAME.get(normaliseLabel(label)) ?? { type: 'Text' }) };
}
