import { useEffect, useRef, useState } from 'react';
import { colourOf, type OverlayBox } from './overlay-box.js';
import { drawPdfPage, type LoadedDocument } from './load-document.js';

interface Props {
  doc: LoadedDocument;
  pageNumber: number;
  /** page size in PixelSpace when the document has no image (from the result's layout sizes) */
  fallbackSize?: { width: number; height: number };
  boxes: OverlayBox[];
  showBoxes: boolean;
  selectedKey?: string | null;
  onSelect?(box: OverlayBox): void;
  highlighted?: boolean;
  /** fill masked regions instead of outlining them */
  solidBoxes?: boolean;
}

/** One page: its image (pdf.js canvas or the image itself) with boxes placed in percent of the page size. */
export function PageView({ doc, pageNumber, fallbackSize, boxes, showBoxes, selectedKey, onSelect, highlighted, solidBoxes }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<OverlayBox | null>(null);
  const size = doc.sizes[pageNumber - 1] ?? fallbackSize ?? { width: 1240, height: 1754 };

  useEffect(() => {
    if (doc.kind !== 'pdf' || !canvasRef.current || !frameRef.current) return;
    const canvas = canvasRef.current;
    const width = frameRef.current.clientWidth || 800;
    let cancelled = false;
    // render when the page comes near the viewport: long documents stay cheap
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          io.disconnect();
          if (!cancelled) void drawPdfPage(doc.pdf, pageNumber, canvas, width).catch(() => undefined);
        }
      },
      { rootMargin: '800px' },
    );
    io.observe(canvas);
    return () => {
      cancelled = true;
      io.disconnect();
    };
  }, [doc, pageNumber]);

  useEffect(() => {
    if (highlighted) frameRef.current?.scrollIntoView({ block: 'start' });
  }, [highlighted]);

  return (
    <div
      ref={frameRef}
      className={`page${highlighted ? ' page-highlight' : ''}`}
      style={{ aspectRatio: `${size.width} / ${size.height}` }}
      data-page={pageNumber}
      data-testid="page"
    >
      {doc.kind === 'pdf' && <canvas ref={canvasRef} className="page-image" />}
      {doc.kind === 'image' && doc.urls[pageNumber - 1] && <img className="page-image" src={doc.urls[pageNumber - 1]} alt="" draggable={false} />}
      {showBoxes &&
        boxes.map((b) => {
          const w = b.layoutWidth || size.width;
          const h = b.layoutHeight || size.height;
          const colour = colourOf(b.type);
          return (
            <div
              key={b.key}
              data-testid="bbox"
              data-type={b.type}
              className={`bbox${selectedKey === b.key ? ' bbox-selected' : ''}${solidBoxes ? ' bbox-solid' : ''}`}
              style={{
                left: `${(b.bbox[0] / w) * 100}%`,
                top: `${(b.bbox[1] / h) * 100}%`,
                width: `${((b.bbox[2] - b.bbox[0]) / w) * 100}%`,
                height: `${((b.bbox[3] - b.bbox[1]) / h) * 100}%`,
                borderColor: colour,
                ['--box-colour' as string]: colour,
              }}
              onMouseEnter={() => setHover(b)}
              onMouseLeave={() => setHover((cur) => (cur === b ? null : cur))}
              onClick={() => onSelect?.(b)}
            />
          );
        })}
      {doc.kind === 'blank' &&
        boxes.map((b) => {
          const w = b.layoutWidth || size.width;
          const h = b.layoutHeight || size.height;
          return (
            <div key={`t${b.key}`} className="blank-text" style={{ left: `${(b.bbox[0] / w) * 100}%`, top: `${(b.bbox[1] / h) * 100}%`, width: `${((b.bbox[2] - b.bbox[0]) / w) * 100}%`, height: `${((b.bbox[3] - b.bbox[1]) / h) * 100}%` }}>
              {b.text}
            </div>
          );
        })}
      {hover && (
        <div
          className="bbox-tip"
          style={{
            left: `${(hover.bbox[0] / (hover.layoutWidth || size.width)) * 100}%`,
            top: `${(hover.bbox[3] / (hover.layoutHeight || size.height)) * 100}%`,
          }}
        >
          <strong style={{ color: colourOf(hover.type) }}>{hover.type}</strong> {hover.text.length > 280 ? `${hover.text.slice(0, 280)}…` : hover.text}
        </div>
      )}
      <span className="page-number">{pageNumber}</span>
    </div>
  );
}
