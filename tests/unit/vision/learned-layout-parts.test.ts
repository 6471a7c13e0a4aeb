import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocError } from '../../../engine/core/errors.js';
import type { LayoutDetection, Page, TextLine } from '../../../engine/core/page.js';
import { parsePages } from '../../../engine/parse/parse-pages.js';
import { decodePaddleRows, decodeYoloEndToEnd, decodeYoloScores, nonMaxSuppression } from '../../../engine/vision/layout/learned/decode-detections.js';
import { labelMeaning } from '../../../engine/vision/layout/learned/label-types.js';
import { findLayoutModel } from '../../../engine/vision/layout/learned/model-folder.js';
import { paddlePreprocess, readLayoutSidecar } from '../../../engine/vision/layout/learned/model-sidecar.js';
import { onnxMetadata, parseNamesLiteral } from '../../../engine/vision/layout/learned/onnx-metadata.js';
import { letterboxInput, paddleInput, paddleResizedSize } from '../../../engine/vision/layout/learned/preprocess.js';

function solid(width: number, height: number, rgb: [number, number, number]): { width: number; height: number; data: Uint8ClampedArray } {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([...rgb, 255], i);
  return { width, height, data };
}

describe('preprocessing', () => {
  it('Paddle Resize: keep_ratio fits the short side unless the long side overflows; otherwise stretches to target_size', () => {
    const base = { mean: [0, 0, 0] as [number, number, number], std: [1, 1, 1] as [number, number, number], isScale: true, normType: 'none' as const };
    expect(paddleResizedSize(1224, 1584, { ...base, targetSize: [800, 608], keepRatio: false })).toEqual({ width: 608, height: 800, scaleX: 608 / 1224, scaleY: 800 / 1584 });
    // short side 1224 -> 800 would make the long side 1035 > 1333? no: 800 * 1584 / 1224 = 1035 <= 1333
    expect(paddleResizedSize(1224, 1584, { ...base, targetSize: [800, 1333], keepRatio: true })).toEqual({ width: 800, height: 1035, scaleX: 800 / 1224, scaleY: 800 / 1224 });
    // a long strip: the long side limits
    const strip = paddleResizedSize(400, 4000, { ...base, targetSize: [800, 1333], keepRatio: true });
    expect(strip.height).toBe(1333);
    expect(strip.scaleX).toBeCloseTo(1333 / 4000, 10);
  });

  it('Paddle NormalizeImage: is_scale then (v - mean) / std per channel, planar RGB', () => {
    const p = paddlePreprocess(
      [{ type: 'Resize', target_size: [4, 6], keep_ratio: false }, { type: 'NormalizeImage', mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], is_scale: true }, { type: 'Permute' }],
      'inference.yml',
    );
    const input = paddleInput(solid(12, 8, [255, 0, 102]), p, null);
    expect([input.width, input.height]).toEqual([6, 4]);
    expect(input.data).toHaveLength(3 * 24);
    expect(input.data[0]).toBeCloseTo((1 - 0.485) / 0.229, 5);
    expect(input.data[24]).toBeCloseTo((0 - 0.456) / 0.224, 5);
    expect(input.data[48 + 23]).toBeCloseTo((0.4 - 0.406) / 0.225, 5);
  });

  it('a fixed graph input size wins over the yml', () => {
    const p = paddlePreprocess([{ type: 'Resize', target_size: [800, 608] }, { type: 'Permute' }], 'x.yml');
    const input = paddleInput(solid(100, 50, [0, 0, 0]), p, [64, 32]);
    expect([input.height, input.width, input.scaleX, input.scaleY]).toEqual([64, 32, 0.32, 1.28]);
  });

  it('an unknown preprocessing step is refused by name', () => {
    expect(() => paddlePreprocess([{ type: 'Resize', target_size: [640, 640] }, { type: 'RandomDistort' }], '/m/inference.yml')).toThrow(/\/m\/inference.yml: preprocessing step "RandomDistort" is not supported/);
  });

  it('YOLO letterbox: fits 1224 x 1584 into 640 x 640 as 495 x 640, centred with 72 px of grey 114 at the left', () => {
    const input = letterboxInput(solid(1224, 1584, [255, 255, 255]), [640, 640]);
    expect([input.innerWidth, input.innerHeight, input.padX, input.padY]).toEqual([495, 640, 72, 0]);
    expect(input.scaleX).toBeCloseTo(640 / 1584, 12);
    expect(input.data[0]).toBeCloseTo(114 / 255, 6); // left pad
    expect(input.data[72]).toBeCloseTo(1, 6); // first image column
    expect(input.data[72 + 495]).toBeCloseTo(114 / 255, 6); // right pad
  });
});

describe('decoding model outputs', () => {
  it('Paddle rows: the count limits them, class -1 and low scores go', () => {
    const rows = [2, 0.9, 1, 2, 3, 4, -1, 0.99, 0, 0, 5, 5, 3, 0.3, 0, 0, 5, 5, 4, 0.8, 10, 10, 20, 20, 5, 0.95, 0, 0, 1, 1];
    const dets = decodePaddleRows(rows, 5, 6, 4, 0.5);
    expect(dets).toEqual([
      { classId: 2, score: expect.closeTo(0.9, 6), bbox: [1, 2, 3, 4] },
      { classId: 4, score: expect.closeTo(0.8, 6), bbox: [10, 10, 20, 20] },
    ]);
    // extra columns (a reading-order index) are ignored
    expect(decodePaddleRows([1, 0.7, 0, 0, 9, 9, 42], 1, 7, null, 0.5)).toEqual([{ classId: 1, score: 0.7, bbox: [0, 0, 9, 9] }]);
  });

  it('YOLO head channels first and transposed give the same boxes; NMS is class-wise', () => {
    // 3 anchors, 2 classes: anchor 0 and 1 overlap as class 0, anchor 2 overlaps anchor 0 but is class 1
    const anchors = [
      [50, 50, 40, 40, 0.9, 0.1],
      [52, 51, 40, 40, 0.8, 0.1],
      [50, 50, 40, 40, 0.2, 0.7],
    ];
    const channelsFirst = [0, 1, 2, 3, 4, 5].flatMap((c) => anchors.map((a) => a[c]!));
    const a = decodeYoloScores(channelsFirst, 2, 3, 'channels-first', 0.25);
    const b = decodeYoloScores(anchors.flat(), 2, 3, 'rows', 0.25);
    expect(a).toEqual(b);
    expect(a[0]).toEqual({ classId: 0, score: 0.9, bbox: [30, 30, 70, 70] });
    const kept = nonMaxSuppression(a, 0.5);
    expect(kept.map((d) => [d.classId, d.score])).toEqual([
      [0, 0.9],
      [1, 0.7],
    ]);
    // across classes only near-identical boxes go
    expect(nonMaxSuppression(a, 0.5, 0.95).map((d) => [d.classId, d.score])).toEqual([[0, 0.9]]);
  });

  it('YOLOv5 rows multiply objectness in; end-to-end rows are x1 y1 x2 y2 score class', () => {
    expect(decodeYoloScores([10, 10, 4, 4, 0.5, 0.2, 0.9], 2, 1, 'rows-objectness', 0.25)).toEqual([{ classId: 1, score: 0.45, bbox: [8, 8, 12, 12] }]);
    expect(decodeYoloEndToEnd([1, 2, 3, 4, 0.6, 3, 1, 2, 3, 4, 0.1, 3], 2, 6, 0.25)).toEqual([{ classId: 3, score: 0.6, bbox: [1, 2, 3, 4] }]);
  });
});

describe('label table', () => {
  it('maps the label sets of PP-DocLayout, DocLayout-YOLO and DocLayNet to the spec types', () => {
    expect(labelMeaning('doc_title')).toEqual({ type: 'Title', level: 1 });
    expect(labelMeaning('Section-header')).toEqual({ type: 'Title' });
    expect(labelMeaning('paragraph_title')).toEqual({ type: 'Title' });
    expect(labelMeaning('plain text')).toEqual({ type: 'Text' });
    expect(labelMeaning('List-item')).toEqual({ type: 'Text' });
    expect(labelMeaning('Table')).toEqual({ type: 'Table' });
    expect(labelMeaning('chart')).toEqual({ type: 'Figure' });
    expect(labelMeaning('Picture')).toEqual({ type: 'Figure' });
    expect(labelMeaning('seal')).toEqual({ type: 'Figure' });
    expect(labelMeaning('table_caption')).toEqual({ type: 'Text', role: 'caption' });
    expect(labelMeaning('chart_title')).toEqual({ type: 'Text', role: 'caption' });
    expect(labelMeaning('table_footnote')).toEqual({ type: 'Text', role: 'note' });
    expect(labelMeaning('Page-footer')).toEqual({ type: 'Text', role: 'furniture' });
    expect(labelMeaning('abandon')).toEqual({ type: 'Text', role: 'furniture' });
    expect(labelMeaning('number')).toEqual({ type: 'Text', role: 'furniture' });
    expect(labelMeaning('isolate_formula')).toEqual({ type: 'Text' });
    expect(labelMeaning('something new')).toEqual({ type: 'Text' });
  });
});

describe('ONNX metadata and sidecars', () => {
  it('reads metadata_props from the top level of a ModelProto and parses Ultralytics names', () => {
    const enc = new TextEncoder();
    const entry = (k: string, v: string): number[] => {
      const body = [0x0a, k.length, ...enc.encode(k), 0x12, v.length, ...enc.encode(v)];
      return [0x72, body.length, ...body];
    };
    const bytes = Uint8Array.from([0x08, 0x07, 0x3a, 0x02, 0x12, 0x00, ...entry('names', "{0: 'title', 1: 'plain text'}"), ...entry('imgsz', '[1024, 1024]')]);
    const meta = onnxMetadata(bytes)!;
    expect(meta.get('imgsz')).toBe('[1024, 1024]');
    expect(parseNamesLiteral(meta.get('names')!)).toEqual(['title', 'plain text']);
    expect(onnxMetadata(new TextEncoder().encode('not a model at all'))).toBeNull();
  });

  it('class names from a data yaml, a {id: name} json or labels.txt', () => {
    const dir = mkdtempSync(join(tmpdir(), 'docai-sidecar-'));
    writeFileSync(join(dir, 'data.yaml'), 'names:\n  0: title\n  1: text\n  2: table\nimgsz: 1024\n');
    expect(readLayoutSidecar(dir)).toMatchObject({ labels: ['title', 'text', 'table'], imgsz: [1024, 1024], paddle: null });
    const dir2 = mkdtempSync(join(tmpdir(), 'docai-sidecar-'));
    writeFileSync(join(dir2, 'config.json'), JSON.stringify({ id2label: { 0: 'Caption', 1: 'Footnote' } }));
    expect(readLayoutSidecar(dir2).labels).toEqual(['Caption', 'Footnote']);
    const dirJson = mkdtempSync(join(tmpdir(), 'docai-sidecar-'));
    writeFileSync(join(dirJson, 'infer_cfg.json'), JSON.stringify({ Preprocess: [{ type: 'Resize', target_size: [640, 640], keep_ratio: false }, { type: 'NormalizeImage', mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225], is_scale: true }, { type: 'Permute' }], label_list: ['Text', 'Title'] }));
    expect(readLayoutSidecar(dirJson)).toMatchObject({ labels: ['Text', 'Title'], paddle: { targetSize: [640, 640], normType: 'mean_std', isScale: true } });
    const dir3 = mkdtempSync(join(tmpdir(), 'docai-sidecar-'));
    writeFileSync(join(dir3, 'labels.txt'), 'text\ntitle\n');
    expect(readLayoutSidecar(dir3).labels).toEqual(['text', 'title']);
  });
});

describe('model folder', () => {
  function folder(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'docai-models-'));
    for (const [p, text] of Object.entries(files)) {
      mkdirSync(join(root, p, '..'), { recursive: true });
      writeFileSync(join(root, p), text);
    }
    return root;
  }

  it('finds an export kept in its own sub-folder of layout/, in replace mode by default', () => {
    const root = folder({ 'layout/PP-DocLayout-L/inference.onnx': 'x', 'layout/PP-DocLayout-L/inference.yml': 'y' });
    expect(findLayoutModel(root, {})).toMatchObject({ dir: join(root, 'layout/PP-DocLayout-L'), onnx: join(root, 'layout/PP-DocLayout-L/inference.onnx'), mode: 'replace', scoreThreshold: null });
  });

  it('docai-layout.json picks the file, the mode and the threshold; DOCAI_LAYOUT_MODE overrides the mode', () => {
    const root = folder({ 'layout/a.onnx': 'x', 'layout/b.onnx': 'x', 'layout/docai-layout.json': JSON.stringify({ model: 'b.onnx', mode: 'vote', scoreThreshold: 0.4 }) });
    expect(findLayoutModel(root, {})).toMatchObject({ onnx: join(root, 'layout/b.onnx'), mode: 'vote', scoreThreshold: 0.4 });
    expect(findLayoutModel(root, { DOCAI_LAYOUT_MODE: 'replace' })!.mode).toBe('replace');
    expect(findLayoutModel(root, { DOCAI_LAYOUT_MODE: 'off' })).toBeNull();
  });

  it('two models and no choice, or an empty layout folder, are errors that say what to do', () => {
    const two = folder({ 'layout/a.onnx': 'x', 'layout/b.onnx': 'x' });
    expect(() => findLayoutModel(two, {})).toThrow(DocError);
    expect(() => findLayoutModel(two, {})).toThrow(/several .onnx files \(a.onnx, b.onnx\); name one in docai-layout.json/);
    const empty = folder({ 'layout/readme.txt': 'x' });
    expect(() => findLayoutModel(empty, {})).toThrow(/holds no .onnx file/);
    expect(() => findLayoutModel(folder({ 'layout/m.onnx': 'x', 'layout/docai-layout.json': '{"mode":"both"}' }), {})).toThrow(/"mode" must be "replace" or "vote"/);
  });

  it('no model folder or no layout/ in it: no model', () => {
    expect(findLayoutModel(null, {})).toBeNull();
    expect(findLayoutModel(folder({ 'ch_PP-OCRv4_det_infer.onnx': 'x' }), {})).toBeNull();
  });
});

// ---- LearnedLayout on a page built by hand ----

function line(text: string, x1: number, y1: number, x2: number, y2: number, fontSize = 20): TextLine {
  return { text, bbox: [x1, y1, x2, y2], runs: [{ text, bbox: [x1, y1, x2, y2], fontSize }], fontSize, bold: false, source: 'ocr', confidence: 0.95 };
}

function det(label: string, type: LayoutDetection['type'], score: number, bbox: LayoutDetection['bbox'], role?: LayoutDetection['role']): LayoutDetection {
  return { label, type, score, bbox, ...(role ? { role } : {}) };
}

function page(lines: TextLine[], dets: LayoutDetection[], mode: 'replace' | 'vote'): Page {
  return { pageNumber: 1, width: 1000, height: 1400, lines, rules: [], images: [], ocr: true, rotation: 0, layoutDetections: dets, layoutMode: mode };
}

const LINES = [
  line('The water board reports for the year.', 100, 100, 700, 130),
  line('The board met four times this year and approved the budget for the new pumping', 100, 200, 900, 222),
  line('station, which opens in the spring after three years of building work on the river.', 100, 230, 900, 252),
  line('Page 7 of the report', 100, 1340, 400, 1360),
];

describe('LearnedLayout', () => {
  it('replace: the box with the higher score takes a line both hold; furniture leaves the tree', () => {
    const dets = [
      det('text', 'Text', 0.6, [90, 90, 910, 140]),
      det('doc_title', 'Title', 0.9, [90, 95, 710, 135]),
      det('text', 'Text', 0.85, [90, 190, 910, 260]),
      det('footer', 'Text', 0.7, [90, 1330, 410, 1370], 'furniture'),
    ];
    const parsed = parsePages({ format: 'png', pages: [page(LINES, dets, 'replace')] });
    expect(parsed.regions.map((r) => [r.type, r.text])).toEqual([
      ['Title', 'The water board reports for the year.'],
      ['Text', `${LINES[1]!.text} ${LINES[2]!.text}`],
    ]);
    expect(parsed.regions[0]!.level).toBe(1);
    expect(parsed.furniture.map((f) => [f.kind, f.text])).toEqual([['footer', 'Page 7 of the report']]);
    // the rules alone keep that line as text
    const rules = parsePages({ format: 'png', pages: [{ ...page(LINES, [], 'replace'), layoutDetections: undefined }] });
    expect(rules.furniture).toEqual([]);
    expect(rules.regions.some((r) => r.text.includes('Page 7 of the report'))).toBe(true);
  });

  it('vote: a sure detection retypes the rules region; an unsure one (below 0.6) leaves it as the rules said', () => {
    const title = LINES[0]!;
    const sure = parsePages({ format: 'png', pages: [page(LINES.slice(0, 3), [det('paragraph_title', 'Title', 0.8, [90, 90, 710, 140])], 'vote')] });
    expect(sure.regions[0]).toMatchObject({ type: 'Title', text: title.text });
    const unsure = parsePages({ format: 'png', pages: [page(LINES.slice(0, 3), [det('text', 'Text', 0.55, [90, 90, 910, 260]), det('paragraph_title', 'Title', 0.58, [90, 90, 710, 140])], 'vote')] });
    const rules = parsePages({ format: 'png', pages: [{ ...page(LINES.slice(0, 3), [], 'vote'), layoutDetections: undefined }] });
    expect(rules.regions[0]).toMatchObject({ type: 'Text', text: title.text });
    expect(unsure.regions.map((r) => [r.type, r.text])).toEqual(rules.regions.map((r) => [r.type, r.text]));
    // and the other way: a sure "text" box makes a rules title plain text
    const asText = parsePages({ format: 'png', pages: [page([line('Results', 100, 100, 300, 140, 40), ...LINES.slice(1, 3)], [det('text', 'Text', 0.9, [90, 90, 310, 150])], 'vote')] });
    const rulesTitle = parsePages({ format: 'png', pages: [{ ...page([line('Results', 100, 100, 300, 140, 40), ...LINES.slice(1, 3)], [], 'vote'), layoutDetections: undefined }] });
    expect(rulesTitle.regions[0]).toMatchObject({ type: 'Title', text: 'Results' });
    expect(asText.regions[0]).toMatchObject({ type: 'Text', text: 'Results' });
  });

  it('replace: two columns under a full-width title read title, left column, right column, whatever order the model gave', () => {
    const col = (x: number, y: number, words: string): TextLine[] => [0, 1, 2].map((i) => line(`${words} line ${i + 1} of the column, set in the body size here`, x, y + 30 * i, x + 400, y + 30 * i + 22));
    const lines = [line('Two columns of findings', 100, 100, 600, 140, 36), ...col(100, 200, 'left upper'), ...col(100, 400, 'left lower'), ...col(540, 200, 'right upper'), ...col(540, 400, 'right lower')];
    const dets = [
      det('text', 'Text', 0.9, [530, 390, 950, 480]),
      det('text', 'Text', 0.9, [90, 190, 510, 280]),
      det('paragraph_title', 'Title', 0.9, [90, 90, 610, 150]),
      det('text', 'Text', 0.9, [530, 190, 950, 280]),
      det('text', 'Text', 0.9, [90, 390, 510, 480]),
    ];
    const parsed = parsePages({ format: 'png', pages: [page(lines, dets, 'replace')] });
    expect(parsed.regions.map((r) => r.text.split(' line ')[0])).toEqual(['Two columns of findings', 'left upper', 'left lower', 'right upper', 'right lower']);
    expect(parsed.regions[1]!.text).toBe(col(100, 200, 'left upper').map((l) => l.text).join(' '));
  });

  it('replace: lines in no box are read by the rules and come back in reading order with the model regions', () => {
    const parsed = parsePages({ format: 'png', pages: [page(LINES.slice(0, 3), [det('text', 'Text', 0.85, [90, 190, 910, 260])], 'replace')] });
    expect(parsed.regions.map((r) => r.text)).toEqual([LINES[0]!.text, `${LINES[1]!.text} ${LINES[2]!.text}`]);
  });
});
