import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { FileKind } from '../../state/workspace.js';

/** Page size in the engine's PixelSpace: PDF pages at 144 dpi (points x 2), images in upright pixels. */
export interface PageSize {
  width: number;
  height: number;
}

export type LoadedDocument =
  | { kind: 'pdf'; pdf: PDFDocumentProxy; sizes: PageSize[] }
  | { kind: 'image'; urls: string[]; sizes: PageSize[] }
  | { kind: 'blank'; sizes: PageSize[] };

/** PDF points to PixelSpace. */
export const PDF_PIXEL_SCALE = 2;

let pdfjs: Promise<typeof import('pdfjs-dist')> | null = null;

/** pdf.js is loaded on first use so that the workspace paints without it. */
function loadPdfjs(): Promise<typeof import('pdfjs-dist')> {
  pdfjs ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([lib, worker]) => {
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  });
  return pdfjs;
}

export async function loadDocument(bytes: Blob, kind: FileKind): Promise<LoadedDocument> {
  if (kind === 'pdf') {
    const lib = await loadPdfjs();
    const assets = (d: string) => new URL(`./pdfjs/${d}/`, document.baseURI).href;
    const pdf = await lib.getDocument({
      data: new Uint8Array(await bytes.arrayBuffer()),
      isEvalSupported: false,
      cMapUrl: assets('cmaps'),
      cMapPacked: true,
      standardFontDataUrl: assets('standard_fonts'),
      wasmUrl: assets('wasm'),
    }).promise;
    const sizes: PageSize[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const vp = (await pdf.getPage(n)).getViewport({ scale: PDF_PIXEL_SCALE });
      sizes.push({ width: vp.width, height: vp.height });
    }
    return { kind: 'pdf', pdf, sizes };
  }
  if (kind === 'image' && isTiff(new Uint8Array(await bytes.slice(0, 4).arrayBuffer()))) return loadTiff(bytes);
  if (kind === 'image') {
    const url = URL.createObjectURL(bytes);
    // createImageBitmap applies EXIF orientation like the engine does (upright pixels)
    const bmp = await createImageBitmap(bytes, { imageOrientation: 'from-image' });
    const size = { width: bmp.width, height: bmp.height };
    bmp.close();
    return { kind: 'image', urls: [url], sizes: [size] };
  }
  return { kind: 'blank', sizes: [] };
}

export function releaseDocument(doc: LoadedDocument): void {
  if (doc.kind === 'pdf') void doc.pdf.destroy();
  if (doc.kind === 'image') doc.urls.forEach((u) => URL.revokeObjectURL(u));
}

/** Draw one PDF page into a canvas at the given CSS width (device pixels respected). */
export async function drawPdfPage(pdf: PDFDocumentProxy, pageNumber: number, canvas: HTMLCanvasElement, cssWidth: number): Promise<void> {
  const page = await pdf.getPage(pageNumber);
  const base = page.getViewport({ scale: 1 });
  const scale = (cssWidth / base.width) * Math.min(2, window.devicePixelRatio || 1);
  const viewport = page.getViewport({ scale });
  canvas.width = Math.round(viewport.width);
  canvas.height = Math.round(viewport.height);
  await page.render({ canvas, viewport }).promise;
}

function isTiff(b: Uint8Array): boolean {
  return (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a);
}

/** Browsers do not show TIFF: decode each page (utif2, loaded on first use) into a PNG. */
async function loadTiff(bytes: Blob): Promise<LoadedDocument> {
  const UTIF = await import('utif2');
  const buf = await bytes.arrayBuffer();
  const ifds = UTIF.decode(buf).filter((ifd) => ifd.t256 !== undefined);
  const urls: string[] = [];
  const sizes: PageSize[] = [];
  for (const ifd of ifds) {
    UTIF.decodeImage(buf, ifd);
    const rgba = UTIF.toRGBA8(ifd);
    const width = ifd.width as number;
    const height = ifd.height as number;
    const canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba.subarray(0, width * height * 4)), width, height), 0, 0);
    urls.push(URL.createObjectURL(await canvas.convertToBlob({ type: 'image/png' })));
    sizes.push({ width, height });
  }
  return { kind: 'image', urls, sizes };
}
