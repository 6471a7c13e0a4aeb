import type { RgbaImage } from '../../core/image.js';
import { upsideDownProbability } from './classify-line-direction.js';
import type { DetectedBox } from './detect-text-boxes.js';
import { recognizeLines } from './recognize-lines.js';
import { orderForReading, rotatePoint, unrotatePoint, type Quad } from './text-quad.js';

/**
 * Page orientation without a page-orientation model. Text lines are long and thin, so when most
 * elongated boxes stand upright the page lies on its side (90 or 270). Which side is decided by reading
 * a few of those lines both ways: the direction that gives confident text and that the 0/180 line
 * classifier calls upright wins. 0 versus 180 is a vote of the line classifier over all lines.
 */

export type QuarterTurn = 0 | 90 | 180 | 270;

const ELONGATED = 1.5;
const TRIAL_LINES = 6;

/** A quad of the original image, ordered for reading in the image turned by `deg`, expressed back in original pixels. */
export function quadForTurn(q: Quad, deg: QuarterTurn, width: number, height: number): Quad {
  const turned = q.map((p) => rotatePoint(p, deg, width, height)) as Quad;
  return orderForReading(turned).map((p) => unrotatePoint(p, deg, width, height)) as Quad;
}

/** Counts of boxes whose long side runs across (horizontal) or down (vertical) the image. */
export function lineDirections(boxes: DetectedBox[]): { horizontal: number; vertical: number } {
  let horizontal = 0;
  let vertical = 0;
  for (const b of boxes) {
    const { w, h } = b.rect;
    // Weight by length so a page of long lines outvotes scattered single characters.
    if (w >= ELONGATED * h) horizontal += w / Math.max(1, h);
    else if (h >= ELONGATED * w) vertical += h / Math.max(1, w);
  }
  return { horizontal, vertical };
}

interface TrialScore {
  deg: QuarterTurn;
  score: number;
}

async function readingScore(img: RgbaImage, quads: Quad[], deg: QuarterTurn): Promise<TrialScore> {
  const turned = quads.map((q) => quadForTurn(q, deg, img.width, img.height));
  const [read, flipped] = await Promise.all([
    recognizeLines(img, turned.map((quad) => ({ quad }))),
    upsideDownProbability(img, turned),
  ]);
  let conf = 0;
  let weight = 0;
  read.forEach((r) => {
    const n = Math.max(1, [...r.text].length);
    conf += r.confidence * n;
    weight += n;
  });
  const upright = flipped.reduce((s, p) => s + (1 - p), 0) / Math.max(1, flipped.length);
  return { deg, score: (weight ? conf / weight : 0) + upright };
}

function longest(boxes: DetectedBox[], vertical: boolean, n: number): Quad[] {
  return boxes
    .filter((b) => (vertical ? b.rect.h >= ELONGATED * b.rect.w : b.rect.w >= ELONGATED * b.rect.h))
    .sort((a, b) => (vertical ? b.rect.h - a.rect.h : b.rect.w - a.rect.w))
    .slice(0, n)
    .map((b) => b.quad);
}

/** 90 or 270 when the page lies on its side, else 0. */
export async function findQuarterTurn(img: RgbaImage, boxes: DetectedBox[]): Promise<0 | 90 | 270> {
  const { horizontal, vertical } = lineDirections(boxes);
  if (vertical <= horizontal || vertical === 0) return 0;
  const sample = longest(boxes, true, TRIAL_LINES);
  const [a, b] = await Promise.all([readingScore(img, sample, 90), readingScore(img, sample, 270)]);
  return a.score >= b.score ? 90 : 270;
}

/**
 * Whether an (otherwise upright-lying) page is upside down, from the line classifier's votes
 * (`upside[i]` for `quads[i]`); a close vote is settled by reading a few lines both ways.
 */
export async function isUpsideDown(img: RgbaImage, quads: Quad[], upside: number[]): Promise<boolean> {
  let votes = 0;
  let weight = 0;
  quads.forEach((q, i) => {
    const w = Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]);
    votes += upside[i]! * w;
    weight += w;
  });
  if (weight === 0) return false;
  const share = votes / weight;
  if (share > 0.7) return true;
  if (share < 0.3) return false;
  const sample = quads
    .map((q, i) => ({ q, w: Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]), i }))
    .sort((x, y) => y.w - x.w)
    .slice(0, TRIAL_LINES)
    .map((s) => s.q);
  const [up, down] = await Promise.all([readingScore(img, sample, 0), readingScore(img, sample, 180)]);
  return down.score > up.score;
}
