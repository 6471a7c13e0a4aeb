import { describe, expect, it } from 'vitest';
import { joinRuns } from '../../../renderer/features/extract/pdf-text-lines.js';

describe('text-layer runs into lines', () => {
  it('joins runs on one baseline, keeps a distant label apart, and orders lines top to bottom', () => {
    const lines = joinRuns([
      { text: '陈立新', box: [478, 380, 540, 404] },
      { text: '科技有限公司', box: [560, 300, 680, 324] },
      { text: '名称', box: [375, 302, 415, 326] },
      { text: '上海澄明仪器', box: [478, 300, 560, 324] },
      { text: '法定代表人', box: [375, 381, 470, 405] },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['名称', '上海澄明仪器科技有限公司', '法定代表人陈立新']);
    expect(lines[1]!.box).toEqual([478, 300, 680, 324]);
  });
});
