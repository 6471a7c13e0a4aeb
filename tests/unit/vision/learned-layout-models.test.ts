import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocError } from '../../../engine/core/errors.js';
import type { DocumentPages, LayoutDetection } from '../../../engine/core/page.js';
import type { ParseNode, ParseResult } from '../../../engine/core/results.js';
import { buildParseResult } from '../../../engine/parse/build-result.js';
import { runParseCommand } from '../../../engine/parse/cli-parse.js';
import { detectDocumentLayout, detectPageLayout } from '../../../engine/vision/layout/learned/detect-layout.js';
import { layoutDetector } from '../../../engine/vision/layout/learned/layout-session.js';
import { findLayoutModel } from '../../../engine/vision/layout/learned/model-folder.js';
import { readDocument } from '../../../engine/vision/read-document.js';
import { PAGE_BOXES, PAGE_TEXT } from '../../fixtures/make-layout-models.js';

/**
 * Real (tiny) ONNX layout models made by tests/fixtures/make-layout-models.ts, run by onnxruntime on the rendered
 * page of a generated PDF. Without a model the rules read that page's title as text (it ends with a full stop at
 * body size) and its word table as two text columns (no numbers, no rules, no caption): the model's regions decide.
 */

const GEN = join(import.meta.dirname, '../../fixtures/generated');
const MODELS = join(GEN, 'layout-models');
const PDF = join(GEN, 'learned-layout.pdf');
const PNG = join(GEN, 'learned-layout.png');
const quiet = { log: () => undefined };

function expectBox(actual: readonly number[], expected: readonly number[], tol: number): void {
  expect(actual).toHaveLength(4);
  actual.forEach((v, i) => expect(Math.abs(v - expected[i]!), `coordinate ${i}: ${v} vs ${expected[i]}`).toBeLessThanOrEqual(tol));
}

function one(dets: readonly LayoutDetection[] | undefined, label: string): LayoutDetection {
  const found = (dets ?? []).filter((d) => d.label === label);
  expect(found, `detections labelled ${label}`).toHaveLength(1);
  return found[0]!;
}

function nodeWith(result: ParseResult, text: string): ParseNode {
  const n = result.nodes!.find((x) => x.text.includes(text) || x.caption.includes(text));
  expect(n, `a node with "${text}"`).toBeDefined();
  return n!;
}

function cellRows(node: ParseNode): string[][] {
  const rows: string[][] = [];
  for (const c of node.cells ?? []) (rows[c.row] ??= [])[c.col] = c.text;
  return rows;
}

/** What every model in the fixtures should make of the page. */
function expectTypedPage(result: ParseResult): void {
  const title = nodeWith(result, PAGE_TEXT.title);
  expect(title).toMatchObject({ type: 'Title', text: PAGE_TEXT.title });
  expect(nodeWith(result, 'The company sold more units')).toMatchObject({ type: 'Text', text: PAGE_TEXT.paragraph.join(' ') });
  const table = nodeWith(result, 'Alice Moreau');
  expect(table.type).toBe('Table');
  expect(cellRows(table)).toEqual(PAGE_TEXT.table);
  const figure = result.nodes!.find((n) => n.type === 'Figure')!;
  expect(figure.caption).toBe(PAGE_TEXT.caption);
  expectBox(figure.composing_blocks[0]!.coordinates, PAGE_BOXES.figure, 1);
  // The closing line lies in no confident box: the rules read it.
  expect(nodeWith(result, PAGE_TEXT.closing)).toMatchObject({ type: 'Text', text: PAGE_TEXT.closing });
  // Reading order: title, paragraph, table, figure, closing line; the footer is furniture.
  expect(result.nodes!.map((n) => n.type)).toEqual(['Title', 'Text', 'Table', 'Figure', 'Text']);
  expect(result.nodes!.some((n) => n.text.includes(PAGE_TEXT.footer))).toBe(false);
  expect(result.furniture!.map((f) => [f.kind, f.text])).toEqual([['footer', PAGE_TEXT.footer]]);
}

let doc: DocumentPages;

beforeAll(async () => {
  doc = await readDocument(PDF, { fileName: 'learned-layout.pdf', ocr: 'never' });
});

describe('PaddleX export (inference.onnx + inference.yml, PP-DocLayout-L labels)', () => {
  it('takes boxes back to page pixels exactly through Resize [800, 608] and scale_factor; the box count and score threshold hold', async () => {
    const laid = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'paddle'), ...quiet });
    const page = laid.pages[0]!;
    expect(page.layoutMode).toBe('replace');
    // 8 rows: the count output says 7, and one of those scores 0.2 (threshold 0.5)
    expect(page.layoutDetections!.map((d) => d.label).sort()).toEqual(['doc_title', 'figure_title', 'footer', 'image', 'table', 'text']);
    expectBox(one(page.layoutDetections, 'doc_title').bbox, PAGE_BOXES.title, 0.15);
    expectBox(one(page.layoutDetections, 'table').bbox, PAGE_BOXES.table, 0.15);
    expectBox(one(page.layoutDetections, 'image').bbox, PAGE_BOXES.figure, 0.15);
    expectBox(one(page.layoutDetections, 'footer').bbox, PAGE_BOXES.footer, 0.15);
    expect(one(page.layoutDetections, 'doc_title')).toMatchObject({ type: 'Title', level: 1, score: 0.93 });
    expect(one(page.layoutDetections, 'figure_title')).toMatchObject({ type: 'Text', role: 'caption', score: 0.8 });
    expect(one(page.layoutDetections, 'footer')).toMatchObject({ role: 'furniture' });
    // the document given in is left as it was
    expect(doc.pages[0]!.layoutDetections).toBeUndefined();
  });

  it('puts the page lines into the regions it found (replace mode)', async () => {
    const laid = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'paddle'), ...quiet });
    expectTypedPage(buildParseResult(laid, 'learned-layout.pdf', 'pro'));
  });

  it('votes with the rules: the model types the regions it is sure of, and claims the table and the figure', async () => {
    const laid = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'paddle'), mode: 'vote', ...quiet });
    expect(laid.pages[0]!.layoutMode).toBe('vote');
    expectTypedPage(buildParseResult(laid, 'learned-layout.pdf', 'pro'));
  });

  it('is used by docai parse when the model folder is configured (DOCAI_MODEL_DIR)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'docai-learned-'));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.stubEnv('DOCAI_MODEL_DIR', join(MODELS, 'paddle'));
    expect(await runParseCommand([PDF, '--mode', 'pro', '--out', out])).toBe(0);
    expectTypedPage(JSON.parse(readFileSync(join(out, 'learned-layout.json'), 'utf8')) as ParseResult);
  });
});

describe('YOLO export (DocLayout-YOLO head [1, 4+C, N])', () => {
  it('reads class names and input size from the ONNX metadata, letterboxes, and NMS drops the duplicate title', async () => {
    const files = findLayoutModel(join(MODELS, 'yolo'))!;
    const detector = await layoutDetector(files);
    expect(detector.kind).toBe('yolo');
    expect(detector.labels[1]).toBe('plain text');
    const laid = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'yolo'), ...quiet });
    const dets = laid.pages[0]!.layoutDetections!;
    // 8 anchors: one duplicate title (IoU > 0.5, lower score) and one unsure anchor (0.1) go
    expect(dets.map((d) => d.label).sort()).toEqual(['abandon', 'figure', 'figure_caption', 'plain text', 'table', 'title']);
    expect(one(dets, 'title').score).toBe(0.9);
    // The PDF page is rendered at the model's input size (about 495 x 640): rounding that size moves a box by
    // under a page pixel. The image test below checks the letterbox mapping to a tenth of a pixel.
    expectBox(one(dets, 'title').bbox, PAGE_BOXES.title, 1);
    expectBox(one(dets, 'figure').bbox, PAGE_BOXES.figure, 1);
    expectBox(one(dets, 'abandon').bbox, PAGE_BOXES.footer, 1);
    expectTypedPage(buildParseResult(laid, 'learned-layout.pdf', 'pro'));
  });

  it('takes class names from a labels.json beside a model without metadata names', async () => {
    const laid = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'yolo-json'), ...quiet });
    expect(laid.pages[0]!.layoutDetections!.map((d) => d.label).sort()).toEqual(['abandon', 'figure', 'figure_caption', 'plain text', 'table', 'title']);
  });

  it('looks at an image file in its own pixels (a half-size page)', async () => {
    const png = await readDocument(PNG, { fileName: 'learned-layout.png', ocr: 'never' });
    const laid = await detectDocumentLayout(png, { path: PNG }, { modelDir: join(MODELS, 'yolo'), ...quiet });
    const fig = one(laid.pages[0]!.layoutDetections, 'figure');
    expectBox(fig.bbox, PAGE_BOXES.figure.map((v) => v / 2), 0.15);
    const result = buildParseResult(laid, 'learned-layout.png', 'pro');
    expect(result.nodes!.map((n) => n.type)).toEqual(['Figure']);
    expectBox(result.nodes![0]!.composing_blocks[0]!.coordinates, PAGE_BOXES.figure.map((v) => v / 2), 0.15);
  });
});

describe('page images turned upright as the page model is', () => {
  it('an OCR page turned 90 degrees clockwise is looked at upright, boxes in upright page pixels', async () => {
    const detector = await layoutDetector(findLayoutModel(join(MODELS, 'yolo'))!);
    // the scan as stored: lying on its side (792 x 612); OCR turned it 90 degrees clockwise to read it
    const stored = { width: 792, height: 612, data: new Uint8ClampedArray(792 * 612 * 4).fill(255) };
    const page = { pageNumber: 1, width: 612, height: 792, lines: [], rules: [], images: [], ocr: true, rotation: 90 };
    const dets = await detectPageLayout(detector, stored, page);
    expectBox(one(dets, 'figure').bbox, PAGE_BOXES.figure.map((v) => v / 2), 0.15);
  });
});

describe('a model that cannot be used', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('a corrupt file: a DocError naming the file and what was expected, reported once; parse goes on with the rules', async () => {
    const files = findLayoutModel(join(MODELS, 'broken'))!;
    const err = await layoutDetector(files).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(DocError);
    expect((err as DocError).code).toBe('INVALID_DOCUMENT');
    expect((err as DocError).message).toContain(join(MODELS, 'broken', 'layout', 'inference.onnx'));
    expect((err as DocError).message).toContain('is not an ONNX file');
    expect((err as DocError).message).toContain('expected a PaddleX/PaddleDetection layout export');
    const log: string[] = [];
    const first = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'broken'), log: (m) => log.push(m) });
    const second = await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'broken'), log: (m) => log.push(m) });
    expect(first).toBe(doc);
    expect(second).toBe(doc);
    expect(log).toHaveLength(1);
    expect(log[0]).toContain('parsing goes on with the layout rules');
    const result = buildParseResult(first, 'learned-layout.pdf', 'pro');
    expect(nodeWith(result, PAGE_TEXT.title).text).toBe(PAGE_TEXT.title);
  });

  it('a Paddle export without its inference.yml is refused by name; once the yml is there, the same process loads it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docai-learned-fix-'));
    mkdirSync(join(root, 'layout'));
    copyFileSync(join(MODELS, 'paddle', 'layout', 'inference.onnx'), join(root, 'layout', 'inference.onnx'));
    const err = await layoutDetector(findLayoutModel(root)!).then(() => null, (e: unknown) => e);
    expect((err as DocError).message).toContain('are a Paddle export\'s, but no inference.yml with a Preprocess list was found');
    copyFileSync(join(MODELS, 'paddle', 'layout', 'inference.yml'), join(root, 'layout', 'inference.yml'));
    const laid = await detectDocumentLayout(doc, { path: PDF }, { modelDir: root, ...quiet });
    expect(one(laid.pages[0]!.layoutDetections, 'table').type).toBe('Table');
  });

  it('an ONNX graph that is no layout model: the error names its inputs', async () => {
    const err = await layoutDetector(findLayoutModel(join(MODELS, 'unsupported'))!).then(() => null, (e: unknown) => e);
    expect((err as DocError).message).toContain('model.onnx: its inputs are x [1,10]');
  });

  it('no model folder, or none with a layout folder: the document comes back as it is, nothing loaded', async () => {
    vi.stubEnv('DOCAI_MODEL_DIR', '');
    expect(await detectDocumentLayout(doc, { path: PDF }, { modelDir: null, ...quiet })).toBe(doc);
    expect(await detectDocumentLayout(doc, { path: PDF }, { modelDir: GEN, ...quiet })).toBe(doc);
    vi.stubEnv('DOCAI_LAYOUT_MODE', 'off');
    expect(await detectDocumentLayout(doc, { path: PDF }, { modelDir: join(MODELS, 'paddle'), ...quiet })).toBe(doc);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
