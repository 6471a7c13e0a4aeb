import { describe, expect, it } from 'vitest';
import type { BBox } from '../../../../engine/core/geometry.js';
import type { TextLine } from '../../../../engine/core/page.js';
import { groupParagraphs, mergeRowLines } from '../../../../engine/vision/layout/group-paragraphs.js';

function ocrLine(text: string, bbox: BBox): TextLine {
  return { text, bbox, runs: [{ text, bbox, fontSize: bbox[3] - bbox[1] }], fontSize: bbox[3] - bbox[1], bold: false, source: 'ocr', confidence: 0.95 };
}

describe('mergeRowLines', () => {
  it('joins pieces of one row left to right', () => {
    const out = mergeRowLines([ocrLine('second', [300, 100, 400, 114]), ocrLine('first', [100, 101, 280, 115])]);
    expect(out.map((l) => l.text)).toEqual(['first second']);
  });

  it('does not join a box more than twice as tall (a vertical headline beside the row)', () => {
    const row = ocrLine('正文的一行文字', [100, 130, 400, 144]);
    const headline = ocrLine('标题竖排', [420, 100, 452, 230]);
    const out = mergeRowLines([row, headline]);
    expect(out).toHaveLength(2);
    expect(out.map((l) => l.text).sort()).toEqual(['标题竖排', '正文的一行文字']);
  });
});

describe('groupParagraphs with display equations', () => {
  it('gives a numbered display equation and its number far out at the margin a box each', () => {
    const lines = [
      ocrLine('we find the fundamental Poisson brackets of the fields', [100, 100, 900, 114]),
      ocrLine('[U(x), P(y)] = d(x - y),', [150, 130, 400, 150]),
      ocrLine('(13)', [860, 132, 900, 148]),
      ocrLine('etc., and the constraints of the model follow from them', [100, 166, 900, 180]),
    ];
    const paras = groupParagraphs(lines);
    expect(paras.map((p) => p.map((l) => l.text).join(' '))).toEqual([
      'we find the fundamental Poisson brackets of the fields',
      '[U(x), P(y)] = d(x - y),',
      '(13)',
      'etc., and the constraints of the model follow from them',
    ]);
    expect(paras[1]![0]!.bbox).toEqual([150, 130, 400, 150]);
    expect(paras[2]![0]!.bbox).toEqual([860, 132, 900, 148]);
  });
});

describe('groupParagraphs: list markers and centred lines', () => {
  const row = (text: string, x1: number, y: number, x2: number): TextLine => ocrLine(text, [x1, y, x2, y + 30]);

  it('keeps a wrapped line that only looks like a list item ("三、...") in its paragraph when the line before runs to the edge', () => {
    const lines = [
      row('高原沟壑区侵蚀沟道主要分布于甘肃省东部陕西省延安', 160, 100, 1000),
      row('南部等地区平均沟道纵比为百分之二十丘陵沟壑区第', 100, 150, 1000),
      row('三、第四副区主要分布于青海省东部甘肃省中部河南省', 100, 200, 1000),
      row('西部平均沟道纵比较小。', 100, 250, 420),
      row('一、侵蚀沟道的分布', 100, 300, 420),
    ];
    const paras = groupParagraphs(lines).map((p) => p.length);
    expect(paras).toEqual([4, 1]);
  });

  it('sets a centred line apart from the indented paragraph under it', () => {
    const lines = [
      row('提升质量奏响悦耳的增收曲', 300, 100, 800),
      row('记者来到全国最大的乌龙茶主产区在城区茶', 160, 140, 1000),
      row('叶公园的生态茶园里记者看到每隔五百米就', 100, 180, 1000),
      row('安装了一台太阳能灭虫器。', 100, 220, 500),
    ];
    const paras = groupParagraphs(lines);
    expect(paras.map((p) => p.map((l) => l.text).join(''))).toEqual(['提升质量奏响悦耳的增收曲', '记者来到全国最大的乌龙茶主产区在城区茶叶公园的生态茶园里记者看到每隔五百米就安装了一台太阳能灭虫器。']);
  });
});

describe('groupParagraphs across a line OCR missed', () => {
  it('keeps one paragraph over a one-line hole after a line that runs to the edge mid-sentence', () => {
    const lines = [
      ocrLine('Could other combinations of transgenic cytokines plus', [64, 110, 547, 125]),
      ocrLine('interferon be effective in reprogramming as is considered a', [49, 128, 547, 143]),
      // the line at 145..160 was not read
      ocrLine('its cognate receptor activates several intracellular', [49, 162, 546, 177]),
      ocrLine('pathways and could be explored in a tolerogenic state.', [49, 179, 348, 194]),
      ocrLine('A new paragraph opens with an indented first line that', [64, 214, 547, 229]),
      ocrLine('goes on to the end of the sentence here.', [49, 231, 300, 246]),
    ];
    expect(groupParagraphs(lines).map((p) => p.length)).toEqual([4, 2]);
  });
});

describe('groupParagraphs: run-in headings in capitals', () => {
  it('opens a paragraph at "SUMMARY:" after a finished sentence, but not at an abbreviation wrapped mid-list', () => {
    const lines = [
      ocrLine('AGENCY: Bureau of Land Management;', [221, 260, 383, 272]),
      ocrLine('Bureau of Indian Affairs, Interior.', [221, 272, 361, 284]),
      ocrLine('SUMMARY: The Bureau of Land', [221, 284, 350, 296]),
      ocrLine('Management and the Bureau of Indian', [221, 296, 384, 308]),
      ocrLine('Affairs are terminating the preparation;', [221, 308, 390, 320]),
      ocrLine('HRQOL: Health-related quality of life;', [221, 320, 388, 332]),
      ocrLine('and so the plan ends here.', [221, 332, 330, 344]),
    ];
    expect(groupParagraphs(lines).map((p) => p.length)).toEqual([2, 5]);
  });

  it('opens a paragraph at a run-in label OCR read with a small letter ("AGENcY:") after a line ending short, not at a word in small letters', () => {
    const lines = [
      ocrLine('Environmental Impact Statement for', [220, 216, 379, 228]),
      ocrLine('Amendment, New Mexico', [220, 228, 334, 240]),
      ocrLine('AGENcY: Bureau of Land Management;', [221, 240, 383, 252]),
      ocrLine('Bureau of Indian Affairs, Interior and', [221, 252, 388, 264]),
      ocrLine('Agency: the office that runs the plan.', [221, 264, 330, 276]),
    ];
    expect(groupParagraphs(lines).map((p) => p.map((l) => l.text.slice(0, 6)))).toEqual([['Enviro', 'Amendm'], ['AGENcY', 'Bureau', 'Agency']]);
  });
});

describe('groupParagraphs: small first-line indents in OCR text', () => {
  it('opens a paragraph at a first line indented by about half its box height after a sentence stop', () => {
    const lines = [
      ocrLine('the final rule published in the Federal', [43, 208, 210, 220]),
      ocrLine('Register in 2001, which is available at', [43, 219, 205, 231]),
      ocrLine('www.blm.gov/policy/im-2014-085.', [43, 230, 188, 242]),
      ocrLine('The following numbered terms and', [51, 241, 203, 253]),
      ocrLine('conditions will appear on the', [43, 252, 170, 264]),
      ocrLine('conveyance documents for the sale', [43, 263, 192, 275]),
    ];
    expect(groupParagraphs(lines).map((p) => p.length)).toEqual([3, 3]);
  });
});

describe('groupParagraphs: a line cut off at the page foot', () => {
  it('keeps a shorter (clipped) last line in the paragraph whose sentence it carries on', () => {
    const lines = [
      ocrLine('远离都市浮华甘守深山阵地是什么在支撑他们精神', [220, 1370, 383, 1384]),
      ocrLine('的高地是什么在推动他们冲锋的步伐旅长说一营', [220, 1382, 383, 1396]),
      ocrLine('博士硕士和学士组成的军官队伍人人都是导弹通', [221, 1394, 383, 1408]),
      ocrLine('既精通一门以上指挥专业文能', [221, 1408, 382, 1416]),
    ];
    expect(groupParagraphs(lines).map((p) => p.length)).toEqual([4]);
  });
});

describe('groupParagraphs: right-aligned lines', () => {
  it('parts a short line set far right from the line under it', () => {
    const lines = [ocrLine('银行', [1469, 118, 1538, 165]), ocrLine('2023年08月25日', [1266, 180, 1540, 219])];
    expect(groupParagraphs(lines).map((p) => p.length)).toEqual([1, 1]);
  });
});

describe('groupParagraphs: bracketed Chinese item tags', () => {
  it('opens an item at a line starting with 【...】 after a line that ends short', () => {
    const lines = [
      ocrLine('【平安证券】常熟银行(601128.SH)*季报点评*息差', [178, 1507, 635, 1534]),
      ocrLine('表现优于同业,看好微贷复苏*强烈推荐20230420', [172, 1538, 593, 1565]),
      ocrLine('【平安证券】常熟银行(601128.SH)*事项点评*盈利', [178, 1576, 635, 1603]),
      ocrLine('维持快增,存贷扩张积极*强烈推荐20230410', [172, 1604, 552, 1630]),
    ];
    expect(groupParagraphs(lines).map((p) => p.length)).toEqual([2, 2]);
  });
});
