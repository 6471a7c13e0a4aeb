import type { RgbaImage } from '../../core/image.js';
import type { TextLine } from '../../core/page.js';
import type { BBox } from '../../core/geometry.js';
import { upsideDownProbability } from './classify-line-direction.js';
import { detectTextBoxes, type DetectedBox } from './detect-text-boxes.js';
import { findQuarterTurn, isUpsideDown } from './find-page-orientation.js';
import { tidyLineText } from './line-text.js';
import { xyCutOrder } from './line-reading-order.js';
import { flattenAlpha, rotateImage } from './page-raster.js';
import { timeStage, timeStageAsync } from './ocr-stage-clock.js';
import { recognizeLines } from './recognize-lines.js';
import { orderForReading, quadSize, rotatePoint, type Quad } from './text-quad.js';

export interface OcrImageOptions {
  /** Find 90/180/270 page turns and upside-down lines (default true). False assumes an upright page. */
  detectOrientation?: boolean;
}

export interface OcrImageResult {
  lines: TextLine[];
  /** How the input was turned clockwise to make it upright. */
  rotation: 0 | 90 | 180 | 270;
  /** Size of the upright image the line boxes refer to. */
  width: number;
  height: number;
  /** Dominant angle of the text lines in the upright image, degrees clockwise (the page's residual skew). */
  skewDegrees: number;
}

/** Longer side the detector sees; 1280 keeps 8-9 pt print at 200 dpi above the detector's smallest text. */
const DET_MAX_SIDE = 1280;
/**
 * A low-resolution page (shorter side under 960, e.g. a 600x800 article image at ~72 dpi) whose text comes out
 * small (median box height under SMALL_TEXT px) is detected again enlarged towards a 960 px shorter side (at most
 * twice), and the lines found only there are added (boxesOutside): 6-7 px text set solid can be missed at native
 * size (a PubLayNet figure caption of 10 lines was found only from 736 up). Small images with ordinary text and
 * 150-300 dpi pages (shrunk to 1280) are not re-run.
 */
const DET_MIN_SIDE = 960;
const SMALL_TEXT = 16;
/**
 * Boxes are kept down to a mean probability of 0.45 (PaddleOCR's box_thresh is 0.6): large bold or condensed
 * headlines score 0.5-0.57 (their stroke centres are less sure than body text) and were dropped whole.
 */
const WEAK_BOX = 0.45;
/** How much taller than the page's median sure box a weak box must be to be read (see largeWeakOnly). */
const LARGE_WEAK = 1.4;
/** Boxes scoring at least this are sure text; weaker ones (down to WEAK_BOX) must read well. */
const SURE_BOX = 0.6;
/** Recognition confidence a weak box needs to be kept: noise and half-lines read at 0.5-0.8, headlines at 0.99+. */
const WEAK_CONFIDENCE = 0.85;
/** Lines read with less confidence than this are noise (PaddleOCR's drop_score). */
const MIN_CONFIDENCE = 0.5;
/** A line whose crop the classifier calls upside down this surely is read turned (PaddleOCR's cls_thresh). */
const FLIP_LINE = 0.9;
/** Lines the 0/180 page vote looks at. */
const VOTE_LINES = 24;

/**
 * OCR of one page image: text lines with boxes in the upright image's pixels, in reading order
 * (XY-cut along the page's dominant line angle). Small skew is undone per line: each box is a rotated
 * rectangle and its crop is straightened before recognition; boxes are reported axis-aligned around it.
 */
export async function ocrImage(image: RgbaImage, opts: OcrImageOptions = {}): Promise<OcrImageResult> {
  const detectOrientation = opts.detectOrientation ?? true;
  if (image.width < 8 || image.height < 8) return { lines: [], rotation: 0, width: image.width, height: image.height, skewDegrees: 0 };
  let img = timeStage('page.flatten', () => flattenAlpha(image));
  let boxes = await detectAtTextScale(img);
  let rotation: 0 | 90 | 180 | 270 = 0;
  if (detectOrientation && boxes.length > 0) {
    const quarter = await timeStageAsync('~orient.quarter', () => findQuarterTurn(img, boxes.filter((b) => b.score >= SURE_BOX)));
    if (quarter !== 0) {
      img = timeStage('page.rotate', () => rotateImage(img, quarter));
      boxes = await detectAtTextScale(img);
      rotation = quarter;
    }
  }
  let quads = boxes.map((b) => readingQuad(b.quad));
  let flips = quads.map(() => false);
  if (detectOrientation && quads.length > 0) {
    // The page vote needs only the longest lines; every line is classified only when some line disagrees.
    const sample = quads
      .map((q, i) => ({ i, w: quadSize(q).w }))
      .sort((a, b) => b.w - a.w)
      .slice(0, VOTE_LINES)
      .map((s) => s.i);
    let upside = await upsideDownProbability(
      img,
      sample.map((i) => quads[i]!),
    );
    if (await isUpsideDown(img, sample.map((i) => quads[i]!), upside)) {
      const { width, height } = img;
      img = timeStage('page.rotate', () => rotateImage(img, 180));
      quads = boxes.map((b) => readingQuad(b.quad.map((p) => rotatePoint(p, 180, width, height)) as Quad));
      upside = upside.map((p) => 1 - p);
      rotation = ((rotation + 180) % 360) as 0 | 90 | 180 | 270;
    }
    if (sample.length < quads.length && upside.some((p) => p > FLIP_LINE)) {
      flips = (await upsideDownProbability(img, quads)).map((p) => p > FLIP_LINE);
    } else {
      sample.forEach((i, k) => (flips[i] = upside[k]! > FLIP_LINE));
    }
  }
  const read = await recognizeLines(
    img,
    quads.map((quad, i) => ({ quad, flip: flips[i] })),
  );
  // The classifier is sometimes sure a tight crop of tiny text is upside down when it is not (the last line of a
  // block of 7 px print, read as garbage turned): a line turned alone is read both ways and keeps the better reading.
  const turned = flips.flatMap((f, i) => (f ? [i] : []));
  if (turned.length > 0) {
    const asIs = await recognizeLines(
      img,
      turned.map((i) => ({ quad: quads[i]! })),
    );
    turned.forEach((i, k) => {
      if (asIs[k]!.confidence > read[i]!.confidence) read[i] = asIs[k]!;
    });
  }
  const placed: { line: TextLine; quad: Quad }[] = [];
  read.forEach((r, i) => {
    const text = tidyLineText(r.text);
    if (!text || !keepReadLine(boxes[i]!.score, r.confidence)) return;
    const quad = quads[i]!;
    const bbox = clampBox(quad, img.width, img.height);
    const fontSize = Math.round(Math.min(quadSize(quad).h, bbox[3] - bbox[1]) * 10) / 10;
    const line: TextLine = {
      text,
      bbox,
      runs: [{ text, bbox, fontSize }],
      fontSize,
      bold: false,
      source: 'ocr',
      confidence: Math.round(r.confidence * 1000) / 1000,
    };
    placed.push({ line, quad });
  });
  const skew = dominantAngle(placed.map((p) => p.quad));
  return {
    lines: timeStage('page.order', () => readingOrder(placed, skew)),
    rotation,
    width: img.width,
    height: img.height,
    skewDegrees: Math.round(((skew * 180) / Math.PI) * 10) / 10,
  };
}

/** Text boxes, found again on an enlarged page when the page is small and so is its text (see DET_MIN_SIDE). */
async function detectAtTextScale(img: RgbaImage): Promise<DetectedBox[]> {
  const boxes = await detectTextBoxes(img, { maxSide: DET_MAX_SIDE, boxThreshold: WEAK_BOX });
  if (Math.max(img.width, img.height) > DET_MAX_SIDE || Math.min(img.width, img.height) >= DET_MIN_SIDE || boxes.length === 0) {
    return largeWeakOnly(boxes);
  }
  if (medianTextHeight(boxes) >= SMALL_TEXT) return largeWeakOnly(boxes);
  const enlarged = await detectTextBoxes(img, { maxSide: DET_MAX_SIDE, minSide: DET_MIN_SIDE, boxThreshold: WEAK_BOX });
  return largeWeakOnly([...boxes, ...boxesOutside(enlarged, boxes)]);
}

/**
 * The boxes of `extra` that lie mostly (70%+) outside every box of `base`. The enlarged pass only adds the lines the
 * native pass missed: where both found a line the native box stays, since its geometry (about 1.8x the type size
 * for 7 px text, against 1.25x enlarged) is what the rest of the page's boxes and the layout rules measure with.
 */
export function boxesOutside(extra: DetectedBox[], base: DetectedBox[]): DetectedBox[] {
  const bounds = (b: DetectedBox) => {
    const xs = b.quad.map((p) => p[0]);
    const ys = b.quad.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const;
  };
  const have = base.map(bounds);
  return extra.filter((e) => {
    const [x1, y1, x2, y2] = bounds(e);
    const area = (x2 - x1) * (y2 - y1);
    let covered = 0;
    for (const [a1, b1, a2, b2] of have) {
      const w = Math.min(x2, a2) - Math.max(x1, a1);
      const h = Math.min(y2, b2) - Math.max(y1, b1);
      if (w > 0 && h > 0) covered += w * h;
    }
    return area > 0 && covered < 0.3 * area;
  });
}

/**
 * Sure boxes, and weak ones that stand taller than the page's ordinary text (LARGE_WEAK times the sure boxes'
 * median height): the headlines weak scores hide. Small weak boxes are mostly labels inside figures and fragments
 * (on a dense article page 27 of them, 19 read well, +5% recognition time): they are not read.
 */
export function largeWeakOnly(boxes: DetectedBox[]): DetectedBox[] {
  const sure = boxes.filter((b) => b.score >= SURE_BOX);
  if (sure.length === boxes.length) return boxes;
  const tall = sure.length > 0 ? LARGE_WEAK * medianTextHeight(sure) : 0;
  return boxes.filter((b) => b.score >= SURE_BOX || Math.min(b.rect.w, b.rect.h) >= tall);
}

/** Median of the boxes' shorter sides, in image pixels. */
export function medianTextHeight(boxes: DetectedBox[]): number {
  const hs = boxes.map((b) => Math.min(b.rect.w, b.rect.h)).sort((a, b) => a - b);
  return hs[Math.floor(hs.length / 2)]!;
}

/** Whether a line read from a box of this detection score with this confidence is text (not noise). */
export function keepReadLine(boxScore: number, confidence: number): boolean {
  if (confidence < MIN_CONFIDENCE) return false;
  return boxScore >= SURE_BOX || confidence >= WEAK_CONFIDENCE;
}

/**
 * Corner order for the crop. Tall narrow boxes on an upright page are vertical lines of CJK text:
 * like PaddleOCR, they are read with the crop turned a quarter counter-clockwise.
 */
function readingQuad(box: Quad): Quad {
  const q = orderForReading(box);
  const { w, h } = quadSize(q);
  if (h >= 1.5 * w) return [q[1], q[2], q[3], q[0]];
  return q;
}

function clampBox(q: Quad, width: number, height: number): BBox {
  const xs = q.map((p) => p[0]);
  const ys = q.map((p) => p[1]);
  const r = (v: number, max: number) => Math.round(Math.min(max, Math.max(0, v)));
  return [r(Math.min(...xs), width), r(Math.min(...ys), height), r(Math.max(...xs), width), r(Math.max(...ys), height)];
}

/** Lines in reading order (XY-cut) on the page straightened by its dominant text angle. */
function readingOrder(placed: { line: TextLine; quad: Quad }[], angle: number): TextLine[] {
  if (placed.length < 2) return placed.map((p) => p.line);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const boxes = placed.map(({ quad }) => {
    const us = quad.map(([x, y]) => x * cos + y * sin);
    const vs = quad.map(([x, y]) => -x * sin + y * cos);
    // Shrink vertically a little: detector boxes of adjacent lines may touch.
    const v1 = Math.min(...vs);
    const v2 = Math.max(...vs);
    const pad = (v2 - v1) * 0.1;
    return { x1: Math.min(...us), y1: v1 + pad, x2: Math.max(...us), y2: v2 - pad };
  });
  return xyCutOrder(boxes).map((i) => placed[i]!.line);
}

/** Median angle of the page's long lines: the skew of a photographed or badly fed page. */
export function dominantAngle(quads: Quad[]): number {
  const angles = quads
    .filter((q) => {
      const { w, h } = quadSize(q);
      return w >= 3 * h;
    })
    .map((q) => Math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0]))
    .sort((a, b) => a - b);
  if (angles.length === 0) return 0;
  return angles[Math.floor(angles.length / 2)]!;
}
