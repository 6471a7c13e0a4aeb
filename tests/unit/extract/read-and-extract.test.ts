import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readDocument } from '../../../engine/vision/read-document.js';
import { runExtraction } from '../../../engine/extract/run-extraction.js';
import type { TemplatePageItem } from '../../../engine/core/results.js';
import { fixture, GENERATED } from './fixture-docs.js';

const compact = (s: string | undefined): string => (s ?? '').normalize('NFKC').replace(/\s+/g, '');

describe('image -> readDocument (OCR) -> bl-extract', () => {
  it('reads the landscape licence image end to end', async () => {
    const { truth } = fixture('extract-licence-landscape');
    const path = join(GENERATED, 'extract-licence-landscape.png');
    const doc = await readDocument(path, { fileName: 'licence.png' });
    const [item] = (await runExtraction([{ fileName: 'licence.png', doc }], { mode: 'bl-extract', jsonSchema: null, prompt: '' })) as TemplatePageItem[];
    const f = item!.extract_data[0]!.extracted_fields;
    expect(f['图片类型']).toBe('营业执照');
    for (const k of ['名称', '统一社会信用代码', '注册资本', '类型', '成立日期', '法定代表人', '营业期限']) expect(compact(f[k]), k).toBe(compact(truth[k]));
    // long fields: at most 3% of characters wrong (the corpus rule)
    for (const k of ['经营范围', '住所']) {
      const got = compact(f[k]);
      const want = compact(truth[k]);
      let same = 0;
      for (let i = 0; i < Math.min(got.length, want.length); i++) if (got[i] === want[i]) same++;
      expect(1 - same / want.length, k).toBeLessThanOrEqual(0.03);
    }
  }, 60_000);
});
