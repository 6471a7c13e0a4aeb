import type { RuleLine } from '../../core/page.js';
import type { InkMask } from './ink-mask.js';

/** Clears the ink of ruling lines from the mask (and a cell of margin), so that what is left is text and graphics. */
export function eraseRules(mask: InkMask, rules: readonly RuleLine[]): void {
  const { width: w, height: h, scale: s, data } = mask;
  for (const r of rules) {
    const half = r.width / s / 2 + 1.5;
    const dx = r.x2 - r.x1;
    const dy = r.y2 - r.y1;
    if (Math.abs(dx) >= Math.abs(dy)) {
      const x1 = Math.max(0, Math.floor(Math.min(r.x1, r.x2) / s));
      const x2 = Math.min(w - 1, Math.ceil(Math.max(r.x1, r.x2) / s));
      for (let x = x1; x <= x2; x++) {
        const cy = (r.y1 + (dx === 0 ? 0 : ((x * s - r.x1) / dx) * dy)) / s;
        for (let y = Math.max(0, Math.floor(cy - half)); y <= Math.min(h - 1, Math.ceil(cy + half)); y++) data[y * w + x] = 0;
      }
    } else {
      const y1 = Math.max(0, Math.floor(Math.min(r.y1, r.y2) / s));
      const y2 = Math.min(h - 1, Math.ceil(Math.max(r.y1, r.y2) / s));
      for (let y = y1; y <= y2; y++) {
        const cx = (r.x1 + (dy === 0 ? 0 : ((y * s - r.y1) / dy) * dx)) / s;
        for (let x = Math.max(0, Math.floor(cx - half)); x <= Math.min(w - 1, Math.ceil(cx + half)); x++) data[y * w + x] = 0;
      }
    }
  }
}
