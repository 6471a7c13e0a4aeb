import { describe, it, expect } from 'vitest';
import type { Page } from '../../../../engine/core/page.js';
import { RulesLayout, isTitleParagraph, layoutContext } from '../../../../engine/vision/layout/rules-layout.js';
import { xyCut } from '../../../../engine/vision/layout/xy-cut.js';
import { groupParagraphs } from '../../../../engine/vision/layout/group-paragraphs.js';
import { proseLines, textLine } from './page-lines.js';

function page(lines: Page['lines'], extra: Partial<Page> = {}): Page {
  return { pageNumber: 1, width: 1190, height: 1684, lines, rules: [], images: [], ocr: false, rotation: 0, ...extra };
}

describe('xyCut', () => {
  it('reads columns left to right when their gaps line up', () => {
    const box = (x: number, y: number): { bbox: [number, number, number, number]; id: string } => ({ bbox: [x, y, x + 400, y + 20], id: `${x}:${y}` });
    const items = [box(100, 100), box(100, 130), box(100, 200), box(100, 230), box(600, 100), box(600, 130), box(600, 200), box(600, 230)];
    const leaves = xyCut(items, { minColumnGap: 30, minBandGap: 30 }).flat().map((i) => i.id);
    expect(leaves).toEqual(['100:100', '100:130', '100:200', '100:230', '600:100', '600:130', '600:200', '600:230']);
  });
});

describe('RulesLayout', () => {
  it('types a large line as a Title, splits paragraphs at a wider gap, and orders three columns', () => {
    const lines = [
      textLine('Harbour Survey Results', [100, 80, 700, 124], 44, true),
      ...proseLines('A', 100, 200, 300, 4),
      ...proseLines('B', 100, 340, 300, 3),
      ...proseLines('C', 450, 200, 300, 5),
      ...proseLines('D', 800, 200, 300, 5),
    ];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    expect(regions[0]).toMatchObject({ type: 'Title', text: 'Harbour Survey Results' });
    const texts = regions.slice(1).map((r) => r.text.slice(0, 1));
    expect(texts).toEqual(['A', 'B', 'C', 'D']);
    expect(regions[1]!.lines).toHaveLength(4);
    expect(regions[1]!.bbox).toEqual([100, 200, 400, 298]);
  });

  it('puts the labels of an image region inside the Figure and keeps a caption apart for parse', () => {
    const lines = [
      ...proseLines('P', 100, 100, 900, 3),
      textLine('Sales', [400, 420, 480, 440], 16),
      textLine('Figure 2: Sales by month', [100, 760, 500, 780], 18),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [100, 400, 1000, 740] }] }), layoutContext(lines));
    const fig = regions.find((r) => r.type === 'Figure')!;
    expect(fig.bbox).toEqual([100, 400, 1000, 740]);
    expect(fig.lines.map((l) => l.text)).toEqual(['Sales']);
    expect(regions.find((r) => r.text.startsWith('Figure 2'))!.role).toBe('caption');
  });

  it('does not take two columns of prose for a table', () => {
    const lines = [...proseLines('L', 100, 200, 480, 8), ...proseLines('R', 620, 200, 480, 8)];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    expect(regions.some((r) => r.type === 'Table')).toBe(false);
    expect(regions.map((r) => r.text.slice(0, 1))).toEqual(['L', 'R']);
  });

  it('does not take an image region with a paragraph set over it for a figure', () => {
    const lines = [...proseLines('T', 120, 420, 800, 6), textLine('After the box comes more text that ends here.', [100, 900, 900, 920], 20)];
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [100, 400, 1000, 600] }] }), layoutContext(lines));
    expect(regions.some((r) => r.type === 'Figure')).toBe(false);
    expect(regions[0]).toMatchObject({ type: 'Text' });
    expect(regions[0]!.lines).toHaveLength(6);
  });

  it('does not grow a figure over a column of short lines beside it', () => {
    // A narrow newspaper column: every line is short, none is a label of the graphic.
    const column = Array.from({ length: 20 }, (_, i) => textLine(`column line ${i} of news`, [620, 300 + i * 26, 900, 320 + i * 26], 20));
    const lines = [...column, textLine('Axis', [300, 610, 360, 630], 16)];
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [100, 300, 600, 600] }] }), layoutContext(lines));
    const fig = regions.find((r) => r.type === 'Figure')!;
    expect(fig.bbox[2]).toBeLessThan(620);
    expect(regions.filter((r) => r.type === 'Text').flatMap((r) => r.lines)).toHaveLength(20);
  });
});

describe('RulesLayout headings set in the body size', () => {
  it('types a centred single line over a paragraph as a Title even with a comma in it', () => {
    const ocr = (text: string, bbox: [number, number, number, number]) => ({ ...textLine(text, bbox, bbox[3] - bbox[1]), source: 'ocr' as const });
    const lines = [
      ocr('提升质量,奏响悦耳的增收曲', [400, 100, 800, 130]),
      ocr('记者来到全国最大的乌龙茶主产区在城区茶叶公园的生态', [260, 150, 1000, 180]),
      ocr('茶园里记者看到每隔五百米就安装了一台太阳能灭虫器这', [200, 200, 1000, 230]),
      ocr('些设备提升了茶叶质量安全。', [200, 250, 600, 280]),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { ocr: true }), layoutContext(lines));
    expect(regions.map((r) => [r.type, r.text])).toEqual([
      ['Title', '提升质量，奏响悦耳的增收曲'],
      ['Text', '记者来到全国最大的乌龙茶主产区在城区茶叶公园的生态茶园里记者看到每隔五百米就安装了一台太阳能灭虫器这些设备提升了茶叶质量安全。'],
    ]);
  });
});

describe('RulesLayout Chinese headings a little larger than the text (OCR)', () => {
  const ocr = (text: string, bbox: [number, number, number, number]) => ({ ...textLine(text, bbox, bbox[3] - bbox[1]), source: 'ocr' as const });

  it('types a short line of Chinese a fifth larger than the running text as a Title, with no gap around it', () => {
    // Body boxes 28 px tall on a 36 px pitch; the heading box 35 px (1.25x: under the general OCR size rule of 1.35x).
    const lines = [
      ocr('调查人员走访了农户合作社和加工企业', [100, 100, 700, 128]),
      ocr('并记录了茶园面积和产量的变化情况', [100, 136, 700, 164]),
      ocr('核对了各地上报的统计数据参见《年鉴》', [100, 172, 640, 200]),
      ocr('第七单元测查卷', [100, 206, 360, 241]),
      ocr('调查表明标准化生态茶园面积逐年增加', [100, 249, 700, 277]),
      ocr('良种推广的比例已经超过了九成以上的', [100, 285, 700, 313]),
      ocr('茶农的人均收入有了明显的提高。', [100, 321, 560, 349]),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { ocr: true }), layoutContext(lines));
    expect(regions.map((r) => [r.type, r.text])).toEqual([
      ['Text', '调查人员走访了农户合作社和加工企业并记录了茶园面积和产量的变化情况核对了各地上报的统计数据参见《年鉴》'],
      ['Title', '第七单元测查卷'],
      ['Text', '调查表明标准化生态茶园面积逐年增加良种推广的比例已经超过了九成以上的茶农的人均收入有了明显的提高。'],
    ]);
  });

  it('parts a larger short Chinese line from the one line under it, but not two full-width body lines differing as much', () => {
    const heading = [ocr('中国的世界文化遗产', [362, 447, 522, 466]), ocr('略。优秀例文参见课堂素材书的第三册', [319, 473, 540, 488])];
    expect(groupParagraphs(heading).map((p) => p.map((l) => l.text))).toEqual([['中国的世界文化遗产'], ['略。优秀例文参见课堂素材书的第三册']]);
    // Tightly set newspaper lines: OCR boxes of 11 and 14 px, every line running the column's width.
    const body = [ocr('茶业项目资金的扶持下漳平市大力改进茶树品种:', [100, 100, 400, 111]), ocr('着力提升水仙茶和高山茶三大名优茶的品质和', [100, 112, 401, 126]), ocr('知名度日前中国茶叶学会已经审查通过了', [100, 128, 399, 139])];
    expect(groupParagraphs(body).map((p) => p.length)).toEqual([3]);
  });
});

describe('RulesLayout headings of two sizes (OCR)', () => {
  const ocr = (text: string, bbox: [number, number, number, number]) => ({ ...textLine(text, bbox, bbox[3] - bbox[1]), source: 'ocr' as const });

  it('types a large line over a smaller one as one Title, though most characters are in the smaller size', () => {
    const lines = [
      ocr('ISAT Practice', [340, 123, 873, 188]),
      ocr('Cumulative, Chapters 1-9', [325, 207, 777, 249]),
      ocr('Read each question. Then fill in the correct', [126, 301, 780, 335]),
      ocr('answer on the answer sheet provided by', [124, 345, 743, 379]),
      ocr('your teacher or on a sheet of paper.', [123, 388, 674, 422]),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { ocr: true }), layoutContext(lines));
    expect(regions.map((r) => [r.type, r.text])).toEqual([
      ['Title', 'ISAT Practice Cumulative, Chapters 1-9'],
      ['Text', 'Read each question. Then fill in the correct answer on the answer sheet provided by your teacher or on a sheet of paper.'],
    ]);
  });
});

describe('RulesLayout notice heading blocks', () => {
  // One column, 20 px type on a 26 px pitch; blocks parted by an extra 20 px.
  const block = (texts: string[], y: number) => texts.map((t, i) => textLine(t, [100, y + i * 26, 100 + 15 * t.length, y + i * 26 + 20], 20));
  const heading = [
    ...block(['DEPARTMENT OF THE INTERIOR', 'Bureau of Indian Affairs'], 100),
    ...block(['Bureau of Land Management', '[BLM_NM_FRN_MO4500178179]', 'Termination of Preparation of the', 'Environmental Impact Statement'], 192),
  ];

  it('joins a block opening with a line in capitals, up to a run-in label, into one Title', () => {
    const lines = [...heading, ...block(['AGENCY: Bureau of Land Management;', 'Bureau of Indian Affairs, Interior.'], 350), ...block(['ACTION: Notice of termination.'], 422)];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    expect(regions[0]).toMatchObject({
      type: 'Title',
      text: 'DEPARTMENT OF THE INTERIOR Bureau of Indian Affairs Bureau of Land Management [BLM_NM_FRN_MO4500178179] Termination of Preparation of the Environmental Impact Statement',
    });
    expect(regions[0]!.bbox[1]).toBe(100);
    expect(regions[0]!.bbox[3]).toBe(192 + 3 * 26 + 20);
    expect(regions[1]!.text.startsWith('AGENCY:')).toBe(true);
  });

  it('joins nothing when no run-in label follows the block', () => {
    const lines = [...heading, ...block(['The bureau has ended the preparation of the statement for the plan.'], 350)];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    expect(regions.some((r) => r.text.startsWith('DEPARTMENT OF THE INTERIOR Bureau of Indian Affairs Bureau of Land'))).toBe(false);
  });
});

describe('RulesLayout headings in a band of their own', () => {
  it('types a short line set apart by space above and below, over a paragraph of its column, as a Title', () => {
    // 20 px lines on a 24 px pitch; 28 px of space above and below the heading cut it into a band of its own.
    const para = (words: string, y: number, n: number, lastText: string) => [
      ...Array.from({ length: n - 1 }, (_, i) => textLine(`${words} line ${i + 1} runs the full width of the column here`, [100, y + i * 24, 600, y + i * 24 + 20], 20)),
      textLine(lastText, [100, y + (n - 1) * 24, 250, y + (n - 1) * 24 + 20], 20),
    ];
    const lines = [...para('Before', 100, 3, 'them [19].'), textLine('Methods', [100, 200, 190, 220], 20), ...para('After', 248, 4, 'in the spring.')];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    expect(regions.map((r) => [r.type, r.text.slice(0, 8)])).toEqual([['Text', 'Before l'], ['Title', 'Methods'], ['Text', 'After li']]);
  });
});

describe('RulesLayout chart labels', () => {
  it('takes a row of date ticks under a chart into the Figure but not a vertical label far off at the page edge', () => {
    const lines = [
      textLine('10%', [207, 1207, 246, 1232], 20),
      textLine('0%', [217, 1272, 246, 1293], 20),
      textLine('-10%', [199, 1332, 244, 1359], 20),
      textLine('2022-08-24 2023-01-05 2023-05-19', [203, 1382, 550, 1409], 20),
      // a sidebar set vertically down the left edge of the page
      textLine('证券研究报告', [29, 1167, 82, 1430], 40),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [252, 1239, 595, 1379] }] }), layoutContext(lines));
    const fig = regions.find((r) => r.type === 'Figure')!;
    expect(fig.bbox).toEqual([203, 1207, 595, 1409]);
    expect(fig.lines.map((l) => l.text).sort()).toEqual(['-10%', '0%', '10%', '2022-08-24 2023-01-05 2023-05-19']);
    expect(regions.some((r) => r.type !== 'Figure' && r.text === '证券研究报告')).toBe(true);
  });
});

describe('RulesLayout figures and headings', () => {
  it('keeps a numbered heading beside a picture out of the figure', () => {
    const lines = [
      textLine('3.3.2 Plant height and flowering', [151, 648, 601, 676], 28),
      ...proseLines('P', 153, 700, 1100, 4, 40, 28),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [222, 228, 1212, 594] }] }), layoutContext(lines));
    expect(regions.find((r) => r.type === 'Figure')!.bbox).toEqual([222, 228, 1212, 594]);
    expect(regions.find((r) => r.text.startsWith('3.3.2'))).toMatchObject({ type: 'Title', text: '3.3.2 Plant height and flowering' });
  });

  it('does not merge two overlapping image regions when their union would reach over a paragraph', () => {
    const lines = proseLines('P', 100, 700, 1000, 5, 30, 20);
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [100, 200, 1100, 600] }, { bbox: [150, 500, 400, 880] }] }), layoutContext(lines));
    const figs = regions.filter((r) => r.type === 'Figure').map((r) => r.bbox);
    expect(figs).toContainEqual([100, 200, 1100, 600]);
    expect(figs.every((b) => b[3] <= 880)).toBe(true);
    expect(regions.filter((r) => r.type === 'Text').flatMap((r) => r.lines)).toHaveLength(5);
  });
});

describe('RulesLayout answer choices', () => {
  it('joins the choice scraps under a question to the question, but keeps a formula and its number apart', () => {
    const lines = [
      textLine('1. Sancho picked up a handful of coins from a jar without looking.', [130, 100, 760, 124], 22),
      textLine('What fraction of the coins that he picked were nickels?', [170, 132, 700, 156], 22),
      textLine('A 2/17', [190, 190, 260, 214], 22),
      textLine('C 5/17', [480, 190, 560, 214], 22),
      textLine('B 3/17', [190, 240, 260, 264], 22),
      textLine('D 7/17', [480, 240, 560, 264], 22),
    ];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ type: 'Text', bbox: [130, 100, 760, 264] });
    expect(regions[0]!.text).toContain('nickels? A 2/17');
  });
});

describe('isTitleParagraph guards', () => {
  const ctx = { bodyFontSize: 20, headingSizes: [] };
  const one = (text: string) => [textLine(text, [100, 100, 500, 120], 20)];
  it('takes a short standalone line for a heading, but not a row of choices, a line breaking off on "and", or a label and its value', () => {
    expect(isTitleParagraph(one('Consent for publication'), 'Consent for publication', ctx, { standalone: true })).toBe(true);
    expect(isTitleParagraph(one('A 2 C 4'), 'A 2 C 4', ctx, { standalone: true })).toBe(false);
    expect(isTitleParagraph(one('The following numbered terms and'), 'The following numbered terms and', ctx, { standalone: true })).toBe(false);
    expect(isTitleParagraph(one('功用：古埃及法老胡夫的陵墓'), '功用：古埃及法老胡夫的陵墓', ctx, { standalone: true })).toBe(false);
  });

  it('takes a row of numbered answers for no numbered heading, but keeps a numbered Chinese heading', () => {
    const row = '3.1辽阔无垠 2膘肥体壮 3极目远眺';
    expect(isTitleParagraph(one(row), row, ctx, { standalone: true })).toBe(false);
    expect(isTitleParagraph(one('3.1 茶园面积的变化'), '3.1 茶园面积的变化', ctx, {})).toBe(true);
  });

  it('takes no line wholly in brackets for a heading, but keeps a heading that ends in a bracketed note', () => {
    expect(isTitleParagraph(one('（上接第一版）'), '（上接第一版）', ctx, { standalone: true, centred: true })).toBe(false);
    expect(isTitleParagraph(one('(Continued from page 1)'), '(Continued from page 1)', ctx, { standalone: true })).toBe(false);
    expect(isTitleParagraph(one('季度业绩回顾（摘要）'), '季度业绩回顾（摘要）', ctx, { standalone: true })).toBe(true);
  });
});

describe('RulesLayout headings in a Chinese newspaper column', () => {
  it('types a heading set a little in over a paragraph with a two-character indent, and one opening with a quote', () => {
    const ocr = (text: string, bbox: [number, number, number, number]) => ({ ...textLine(text, bbox, bbox[3] - bbox[1]), source: 'ocr' as const });
    const lines = [
      ocr('整合资金带动优势特色茶产业发展', [557, 171, 722, 184]),
      ocr('现代茶业县资金补助政策起到了四两拨千斤', [569, 188, 724, 202]),
      ocr('的作用说及中央财政如何支持产业发展时安溪', [552, 201, 725, 214]),
      ocr('县农茶局副局长认为要发展一个地区茶产业。', [552, 212, 725, 225]),
      ocr('“荣誉室”一墙之隔是“创新室”', [583, 238, 709, 251]),
      ocr('一营的荣誉室里锦旗鲜红奖杯夺目参观之后令', [566, 256, 728, 269]),
      ocr('人振奋而与荣誉室一墙之隔的创新室浓缩精华。', [552, 268, 728, 281]),
    ];
    const regions = new RulesLayout().analysePage(page(lines, { ocr: true }), layoutContext(lines));
    expect(regions.map((r) => r.type)).toEqual(['Title', 'Text', 'Title', 'Text']);
    expect(regions[2]!.text).toBe('“荣誉室”一墙之隔是“创新室”');
  });
});

describe('isTitleParagraph on OCR spacing', () => {
  it('measures a heading without the spaces OCR scatters through small print', () => {
    const ctx = { bodyFontSize: 20, headingSizes: [] };
    const t = '7.2. C om binati ons w ith Other Transgenic C ytokines';
    expect(isTitleParagraph([textLine(t, [50, 81, 300, 98], 17)], t, ctx)).toBe(true);
    const e = 'Ethics approval and consent to participate';
    expect(isTitleParagraph([textLine(e, [303, 678, 446, 690], 12)], e, ctx, { standalone: true })).toBe(true);
  });
});

describe('RulesLayout: a graphic box reaching over a heading', () => {
  it('leaves a numbered heading in the text flow as a Title though its centre lies inside the graphic', () => {
    const lines = [textLine('3.3.2 Plant height and flowering', [151, 748, 601, 776], 28), ...proseLines('P', 153, 960, 1100, 4, 40, 28)];
    const regions = new RulesLayout().analysePage(page(lines, { images: [{ bbox: [226, 348, 585, 929] }] }), layoutContext(lines));
    const fig = regions.find((r) => r.type === 'Figure')!;
    expect(fig.lines).toHaveLength(0);
    expect(regions.find((r) => r.type === 'Title')?.text).toBe('3.3.2 Plant height and flowering');
  });
});

describe('RulesLayout: choices in a column of their own', () => {
  it('joins choice scraps to the question right above them though XY-cut reads them after another column', () => {
    const lines = [
      textLine('Read each question. Then fill in the correct answer on the sheet.', [123, 368, 780, 392], 22),
      textLine('Each answer is marked on the answer sheet your teacher gives you.', [123, 400, 780, 424], 22),
      textLine('4. Emilia used 4 of her 8 stamps to mail letters. Which one?', [816, 368, 1395, 392], 22),
      textLine('F G', [880, 489, 908, 589], 22),
      textLine('5 8 3 4', [925, 476, 951, 607], 22),
      textLine('2 3 7', [1211, 503, 1241, 600], 22),
    ];
    const regions = new RulesLayout().analysePage(page(lines), layoutContext(lines));
    const q = regions.find((r) => r.text.startsWith('4. Emilia'))!;
    expect(q.bbox).toEqual([816, 368, 1395, 607]);
    expect(regions).toHaveLength(2);
  });
});
