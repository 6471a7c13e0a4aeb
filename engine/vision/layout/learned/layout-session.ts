import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as ort from 'onnxruntime-node';
import { DocError } from '../../../core/errors.js';
import type { BBox } from '../../../core/geometry.js';
import type { RgbaImage } from '../../../core/image.js';
import { cpuSessionOptions } from '../../cpu-session-options.js';
import { ocrThreads } from '../../ocr/ocr-models.js';
import { decodePaddleRows, decodeYoloEndToEnd, decodeYoloScores, nonMaxSuppression, type RawDetection } from './decode-detections.js';
import type { LayoutModelFiles } from './model-folder.js';
import { readLayoutSidecar, type PaddlePreprocess } from './model-sidecar.js';
import { onnxMetadata, parseNamesLiteral } from './onnx-metadata.js';
import { letterboxInput, paddleInput, paddleResizedSize, type ModelInput } from './preprocess.js';

/**
 * A learned layout model loaded into an onnxruntime session, once per process per file. Two export families are
 * told apart by their inputs and sidecars:
 * - PaddleX / PaddleDetection (PP-DocLayout-S/M/L, PicoDet-layout, RT-DETR-layout): `image` [1,3,H,W] with optional
 *   `scale_factor` and `im_shape` [1,2], an `inference.yml` giving Preprocess and label_list; output [N,6+]
 *   (class, score, x1, y1, x2, y2 in image pixels) and optionally the box count.
 * - YOLO (DocLayout-YOLO, YOLOv8/10/11 layout): `images` [1,3,S,S] letterboxed /255; output [1,4+C,N] (class-wise
 *   NMS here) or [1,N,6] end to end; class names from the ONNX metadata (`names`) or a sidecar.
 */
export interface LayoutDetector {
  kind: 'paddle' | 'yolo';
  file: string;
  labels: string[];
  /**
   * The scale the model's resize applies to an image of width x height (the larger one where the axes differ):
   * a PDF page is rendered at that size, not at 144 dpi only to be shrunk.
   */
  inputScale(width: number, height: number): number;
  /** Boxes in the pixels of `img`, clipped to it, best first. */
  detect(img: RgbaImage): Promise<RawDetection[]>;
}

const EXPECTED =
  'expected a PaddleX/PaddleDetection layout export (inference.onnx with input "image" [1,3,H,W] and inference.yml beside it) ' +
  'or a YOLO layout export (input "images" [1,3,S,S], output [1,4+C,N] or [1,N,6], class names in its metadata or a labels.json)';

function invalid(file: string, why: string): DocError {
  return new DocError('INVALID_DOCUMENT', `layout model ${file}: ${why}; ${EXPECTED}`);
}

/** A float16 or quantised-input export would need other tensors: refused by name rather than misread. */
function requireFloatInput(session: ort.InferenceSession, name: string, file: string): void {
  const meta = session.inputMetadata.find((m) => m.name === name);
  if (meta && meta.isTensor && meta.type !== 'float32') throw invalid(file, `its input ${name} takes ${meta.type}; only float32 exports are supported`);
}

function tensorShape(session: ort.InferenceSession, name: string, io: 'input' | 'output'): (number | string)[] {
  const meta = (io === 'input' ? session.inputMetadata : session.outputMetadata).find((m) => m.name === name);
  return meta && meta.isTensor ? [...meta.shape] : [];
}

/** [height, width] when the graph fixes them. */
function fixedSize(shape: readonly (number | string)[]): [number, number] | null {
  const h = shape[2];
  const w = shape[3];
  return typeof h === 'number' && typeof w === 'number' && h > 0 && w > 0 ? [h, w] : null;
}

function numbers(t: ort.Tensor, file: string): ArrayLike<number> {
  if (t.type === 'float32' || t.type === 'float64' || t.type === 'int32') return t.data as ArrayLike<number>;
  throw invalid(file, `its box output holds ${t.type}; float32 was expected`);
}

function clip(b: BBox, img: RgbaImage): BBox {
  const cx = (v: number) => Math.min(img.width, Math.max(0, v));
  const cy = (v: number) => Math.min(img.height, Math.max(0, v));
  return [cx(b[0]), cy(b[1]), cx(b[2]), cy(b[3])];
}

function toImage(d: RawDetection, input: ModelInput | null, img: RgbaImage): RawDetection | null {
  const b = input
    ? ([(d.bbox[0] - input.padX) / input.scaleX, (d.bbox[1] - input.padY) / input.scaleY, (d.bbox[2] - input.padX) / input.scaleX, (d.bbox[3] - input.padY) / input.scaleY] as BBox)
    : d.bbox;
  const bbox = clip(b, img);
  if (!(bbox[2] - bbox[0] > 1 && bbox[3] - bbox[1] > 1)) return null;
  return { ...d, bbox };
}

async function createSession(file: string, bytes: Uint8Array): Promise<ort.InferenceSession> {
  const threads = ocrThreads();
  try {
    return await ort.InferenceSession.create(bytes, cpuSessionOptions(threads));
  } catch (err) {
    throw invalid(file, `onnxruntime could not load it (${String((err as Error).message ?? err).split('\n')[0]!.slice(0, 300)})`);
  }
}

function paddleDetector(session: ort.InferenceSession, file: string, labels: string[], pre: PaddlePreprocess, minScore: number): LayoutDetector {
  const imageName = session.inputNames.includes('image') ? 'image' : session.inputNames.find((n) => tensorShape(session, n, 'input').length === 4) ?? session.inputNames[0]!;
  requireFloatInput(session, imageName, file);
  const fixed = fixedSize(tensorShape(session, imageName, 'input'));
  const hasScale = session.inputNames.includes('scale_factor');
  const unknown = session.inputNames.filter((n) => n !== imageName && n !== 'scale_factor' && n !== 'im_shape');
  if (unknown.length) throw invalid(file, `it has inputs ${unknown.join(', ')} beyond image, scale_factor and im_shape`);
  return {
    kind: 'paddle',
    file,
    labels,
    inputScale(width, height) {
      const size = fixed ? { scaleX: fixed[1] / width, scaleY: fixed[0] / height } : paddleResizedSize(width, height, pre);
      return Math.max(size.scaleX, size.scaleY);
    },
    async detect(img) {
      const input = paddleInput(img, pre, fixed);
      const feeds: Record<string, ort.Tensor> = { [imageName]: new ort.Tensor('float32', input.data, [1, 3, input.height, input.width]) };
      if (hasScale) feeds.scale_factor = new ort.Tensor('float32', Float32Array.from([input.scaleY, input.scaleX]), [1, 2]);
      if (session.inputNames.includes('im_shape')) feeds.im_shape = new ort.Tensor('float32', Float32Array.from([input.height, input.width]), [1, 2]);
      const out = await session.run(feeds);
      const tensors = session.outputNames.map((n) => out[n]!);
      const boxes = tensors.find((t) => (t.dims.length === 2 && t.dims[1]! >= 6) || (t.dims.length === 3 && t.dims[0] === 1 && t.dims[2]! >= 6));
      if (!boxes) throw invalid(file, `its outputs have shapes ${tensors.map((t) => `[${t.dims.join(',')}]`).join(' ')}, none [N,6] (class, score, x1, y1, x2, y2)`);
      const counter = tensors.find((t) => t !== boxes && t.size === 1);
      const count = counter ? Number((counter.data as ArrayLike<number | bigint>)[0]) : null;
      const cols = boxes.dims[boxes.dims.length - 1]!;
      const rows = boxes.size / cols;
      // With scale_factor the graph itself divides the boxes back to image pixels; without it they are in input pixels.
      // Exports without NMS in the graph (RT-DETR based: PP-DocLayout-L, RT-DETR-layout) can return the same region
      // twice: repeats of a class (IoU > 0.6) and near-identical boxes of two classes (IoU > 0.95) go.
      const raw = nonMaxSuppression(decodePaddleRows(numbers(boxes, file), rows, cols, count, minScore), 0.6, 0.95);
      return raw.flatMap((d) => toImage(d, hasScale ? null : input, img) ?? []).filter((d) => d.classId < labels.length || labels.length === 0);
    },
  };
}

function yoloDetector(session: ort.InferenceSession, file: string, labels: string[], size: [number, number], minScore: number): LayoutDetector {
  const inputName = session.inputNames[0]!;
  requireFloatInput(session, inputName, file);
  const C = labels.length;
  return {
    kind: 'yolo',
    file,
    labels,
    inputScale: (width, height) => Math.min(size[0] / height, size[1] / width),
    async detect(img) {
      const input = letterboxInput(img, size);
      const out = await session.run({ [inputName]: new ort.Tensor('float32', input.data, [1, 3, input.height, input.width]) });
      const t = out[session.outputNames[0]!]!;
      // [1,1,14,N] from a graph that kept a batch axis twice reads as [1,14,N].
      const d = [...t.dims];
      while (d.length > 3 && d[0] === 1) d.shift();
      const data = numbers(t, file);
      let raw: RawDetection[];
      if (d.length === 3 && d[1] === 4 + C) raw = nonMaxSuppression(decodeYoloScores(data, C, d[2]!, 'channels-first', minScore), 0.5);
      else if (d.length === 3 && d[2] === 6) raw = decodeYoloEndToEnd(data, d[1]!, 6, minScore);
      else if (d.length === 3 && d[2] === 4 + C) raw = nonMaxSuppression(decodeYoloScores(data, C, d[1]!, 'rows', minScore), 0.5);
      else if (d.length === 3 && d[2] === 5 + C) raw = nonMaxSuppression(decodeYoloScores(data, C, d[1]!, 'rows-objectness', minScore), 0.5);
      else throw invalid(file, `its output has shape [${d.join(',')}], not [1,${4 + C},N] or [1,N,6] for its ${C} classes`);
      return raw.flatMap((r) => toImage(r, input, img) ?? []).filter((r) => r.classId < C);
    },
  };
}

/** The input size of a YOLO export: fixed in the graph, else its metadata `imgsz`, else a sidecar, else 640. */
function yoloSize(session: ort.InferenceSession, meta: Map<string, string> | null, sidecar: [number, number] | null): [number, number] {
  const fixed = fixedSize(tensorShape(session, session.inputNames[0]!, 'input'));
  if (fixed) return fixed;
  const m = meta?.get('imgsz')?.match(/(\d+)\D+(\d+)/);
  if (m) return [Number(m[1]), Number(m[2])];
  return sidecar ?? [640, 640];
}

async function load(files: LayoutModelFiles): Promise<LayoutDetector> {
  const file = files.onnx;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw invalid(file, `it cannot be read (${(err as Error).message})`);
  }
  const meta = onnxMetadata(bytes);
  if (!meta) throw invalid(file, 'it is not an ONNX file (its bytes are not a protobuf ModelProto)');
  const sidecar = readLayoutSidecar(files.dir);
  const session = await createSession(file, bytes);
  const inputs = session.inputNames;
  const metaNames = meta.get('names') ? parseNamesLiteral(meta.get('names')!) : null;
  const looksPaddle = inputs.includes('image') || inputs.includes('scale_factor') || inputs.includes('im_shape');
  if (looksPaddle || (sidecar.paddle && !inputs.includes('images'))) {
    if (!sidecar.paddle) throw invalid(file, `its inputs (${inputs.join(', ')}) are a Paddle export's, but no inference.yml with a Preprocess list was found in ${files.dir}`);
    const labels = sidecar.labels ?? metaNames;
    if (!labels?.length) throw invalid(file, `no label_list in ${sidecar.file ?? 'inference.yml'}`);
    return paddleDetector(session, file, labels, sidecar.paddle, files.scoreThreshold ?? 0.5);
  }
  const shape = tensorShape(session, inputs[0]!, 'input');
  if (inputs.length === 1 && (shape.length === 4 || shape.length === 0)) {
    const labels = metaNames ?? sidecar.labels;
    if (!labels?.length) throw invalid(file, `no class names: neither its metadata ("names") nor a labels.json / data.yaml / labels.txt in ${files.dir} gives them`);
    return yoloDetector(session, file, labels, yoloSize(session, meta, sidecar.imgsz), files.scoreThreshold ?? 0.3);
  }
  throw invalid(file, `its inputs are ${inputs.map((n) => `${n} [${tensorShape(session, n, 'input').join(',')}]`).join(', ')}`);
}

const detectors = new Map<string, Promise<LayoutDetector>>();

/** The detector for a model file, loaded once per process (a replaced file, with a new size or time, loads again). */
export function layoutDetector(files: LayoutModelFiles): Promise<LayoutDetector> {
  let p = detectors.get(files.fingerprint);
  if (!p) {
    p = load(files);
    detectors.set(files.fingerprint, p);
  }
  return p;
}

export function modelName(files: LayoutModelFiles): string {
  return basename(files.dir) === 'layout' ? basename(files.onnx) : `${basename(files.dir)}/${basename(files.onnx)}`;
}
