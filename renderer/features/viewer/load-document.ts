import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { FileKind } from '../../state/workspace.js';

/** Page size in the engine's PixelSpace: PDF pages at 144 dpi (points x 2), images in upright pixels. */
export interface PageSize {
  width: number;
  height: number;
}

export type LoadedDocument =
  | { kind: 'pdf'; pdf: PDFDocumentProxy; sizes: PageSize[] }
  | { kind: 'image'; url: string; sizes: PageSize[] }
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
    const pdf = await lib.getDocument({ data: new Uint8Array(await bytes.arrayBuffer()), isEvalSupported: false }).promise;
    const sizes: PageSize[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const vp = (await pdf.getPage(n)).getViewport({ scale: PDF_PIXEL_SCALE });
      sizes.push({ width: vp.width, height: vp.height });
    }
    return { kind: 'pdf', pdf, sizes };
  }
  if (kind === 'image') {
    const url = URL.createObjectURL(bytes);
    // createImageBitmap applies EXIF orientation like the engine does (upright pixels)
    const bmp = await createImageBitmap(bytes, { imageOrientation: 'from-image' });
    const size = { width: bmp.width, height: bmp.height };
    bmp.close();
    return { kind: 'image', url, sizes: [size] };
  }
  return { kind: 'blank', sizes: [] };
}

export function releaseDocument(doc: LoadedDocument): void {
  if (doc.kind === 'pdf') void doc.pdf.destroy();
  if (doc.kind === 'image') URL.revokeObjectURL(doc.url);
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
