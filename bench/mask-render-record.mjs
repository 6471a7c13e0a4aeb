// Renders a medical record (lines of text) to page images (PNG, 144 dpi A4) and to a text PDF with the
// same geometry (points = pixels / 2), in three layouts, and returns where every line was drawn.
// Used by bench/mask-corpus.mjs; independent of the masker's code.
import { readFileSync } from 'node:fs';

export const PAGE_W = 1190;
export const PAGE_H = 1684;
const MARGIN = 80;
const FONT_PX = 22;
const LINE_H = 36;

let canvasMod = null;
async function canvasLib() {
  if (!canvasMod) {
    canvasMod = await import('@napi-rs/canvas');
    canvasMod.GlobalFonts.registerFromPath('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'BenchCJK');
  }
  return canvasMod;
}

/** A text measurer for the PNG path (Noto Sans CJK through Skia). */
export async function pngMeasure() {
  const { createCanvas } = await canvasLib();
  const ctx = createCanvas(10, 10).getContext('2d');
  ctx.font = `${FONT_PX}px BenchCJK`;
  return (s) => ctx.measureText(s).width;
}

/**
 * Lays a record out: header (three layouts) then sections as wrapped paragraphs.
 * header: array of [label, value]; sections: array of [title, text]. Returns pages of
 * { text, x, baseline } lines and ruling lines, at most maxPages pages.
 */
export function layoutRecord({ layout, title, header, sections }, measure, maxPages = 3) {
  const pages = [[]];
  const rules = [[]];
  let y = MARGIN + FONT_PX;
  const maxW = PAGE_W - 2 * MARGIN;
  let inHeader = true;
  const push = (text, x) => pages[pages.length - 1].push({ text, x, baseline: y, header: inHeader });
  const newline = (k = 1) => {
    y += LINE_H * k;
    if (y > PAGE_H - MARGIN) {
      if (pages.length >= maxPages) return false;
      pages.push([]);
      rules.push([]);
      y = MARGIN + FONT_PX;
    }
    return true;
  };
  push(title, (PAGE_W - measure(title)) / 2);
  newline(1.5);
  if (layout === 'form') {
    for (let i = 0; i < header.length; i += 2) {
      const a = header[i];
      const b = header[i + 1];
      const ta = `${a[0]}：${a[1]}`;
      if (b && measure(ta) < maxW / 2 - 20) {
        push(ta, MARGIN);
        push(`${b[0]}：${b[1]}`, MARGIN + maxW / 2);
      } else {
        push(ta, MARGIN);
        if (b) {
          newline();
          push(`${b[0]}：${b[1]}`, MARGIN);
        }
      }
      newline();
    }
  } else if (layout === 'narrative') {
    // One sentence, wrapped between items so that no value is cut in two.
    let line = '';
    for (const [k, v] of header) {
      const item = `${k}${v}，`;
      if (line && measure(line + item) > maxW) {
        push(line, MARGIN);
        line = '';
        if (!newline()) return { pages, rules };
      }
      line += item;
    }
    if (line) push(line.replace(/，$/, '。'), MARGIN);
    newline();
  } else {
    // Grid: four cells a row, labels above values, ruled.
    const cols = 4;
    const cw = maxW / cols;
    for (let i = 0; i < header.length; i += cols) {
      const row = header.slice(i, i + cols);
      const top = y - FONT_PX - 8;
      row.forEach(([k], c) => push(k, MARGIN + c * cw + 6));
      newline();
      // Values wrap inside their cell; the row is as tall as its longest value.
      const cellLines = row.map(([, v]) => {
        const out = [];
        let rest = v;
        while (rest) {
          let t = rest;
          while (measure(t) > cw - 12 && t.length > 1) t = t.slice(0, -1);
          out.push(t);
          rest = rest.slice(t.length);
        }
        return out;
      });
      const tall = Math.max(1, ...cellLines.map((l) => l.length));
      for (let r = 0; r < tall; r++) {
        cellLines.forEach((ls, c) => {
          if (ls[r]) push(ls[r], MARGIN + c * cw + 6);
        });
        if (r < tall - 1) newline();
      }
      const bottom = y + 12;
      rules[rules.length - 1].push([MARGIN, top, MARGIN + maxW, top], [MARGIN, bottom, MARGIN + maxW, bottom]);
      for (let c = 0; c <= cols; c++) rules[rules.length - 1].push([MARGIN + c * cw, top, MARGIN + c * cw, bottom]);
      newline(1.3);
    }
  }
  newline(0.5);
  inHeader = false;
  for (const [t, text] of sections) {
    if (!wrap(`【${t}】${text}`)) break;
  }
  return { pages, rules };

  function wrap(text) {
    let line = '';
    for (const ch of text) {
      if (ch === '\n') {
        push(line, MARGIN);
        line = '';
        if (!newline()) return false;
        continue;
      }
      if (measure(line + ch) > maxW) {
        push(line, MARGIN);
        line = '';
        if (!newline()) return false;
      }
      line += ch;
    }
    if (line) push(line, MARGIN);
    return newline();
  }
}

export async function renderPng(page, rules) {
  const { createCanvas } = await canvasLib();
  const canvas = createCanvas(PAGE_W, PAGE_H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, PAGE_W, PAGE_H);
  ctx.fillStyle = '#111111';
  ctx.font = `${FONT_PX}px BenchCJK`;
  for (const l of page) ctx.fillText(l.text, l.x, l.baseline);
  ctx.strokeStyle = '#222222';
  for (const [x1, y1, x2, y2] of rules) {
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
  }
  return canvas.encode('png');
}

/** A text PDF: CJK in Droid Sans Fallback, ASCII in Helvetica (the CJK font has no Latin glyphs). */
export async function pdfWriter() {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const fontkit = (await import('@pdf-lib/fontkit')).default;
  const droid = readFileSync('/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf');
  return {
    async write(pages, rules) {
      const pdf = await PDFDocument.create();
      pdf.registerFontkit(fontkit);
      const cjk = await pdf.embedFont(droid, { subset: false });
      const latin = await pdf.embedFont(StandardFonts.Helvetica);
      const pieces = (text) => text.match(/[\x20-\x7e]+|[^\x20-\x7e]+/g) ?? [];
      const measure = (text) => pieces(text).reduce((w, p) => w + (/^[\x20-\x7e]/.test(p) ? latin : cjk).widthOfTextAtSize(p, FONT_PX) , 0);
      pages.forEach((lines, i) => {
        const page = pdf.addPage([PAGE_W / 2, PAGE_H / 2]);
        for (const l of lines) {
          let at = l.x / 2;
          for (const p of pieces(l.text)) {
            const f = /^[\x20-\x7e]/.test(p) ? latin : cjk;
            page.drawText(p, { x: at, y: (PAGE_H - l.baseline) / 2, size: FONT_PX / 2, font: f, color: rgb(0, 0, 0) });
            at += f.widthOfTextAtSize(p, FONT_PX / 2);
          }
        }
        for (const [x1, y1, x2, y2] of rules[i] ?? []) {
          page.drawLine({ start: { x: x1 / 2, y: (PAGE_H - y1) / 2 }, end: { x: x2 / 2, y: (PAGE_H - y2) / 2 }, thickness: 0.5 });
        }
      });
      return { bytes: await pdf.save(), measure };
    },
  };
}

/** Boxes (page pixels) of every occurrence of value in the drawn lines. */
export function occurrenceBoxes(lines, value, measure) {
  const out = [];
  for (const l of lines) {
    for (let i = l.text.indexOf(value); i >= 0; i = l.text.indexOf(value, i + value.length)) {
      const x1 = l.x + measure(l.text.slice(0, i));
      const x2 = l.x + measure(l.text.slice(0, i + value.length));
      out.push([x1, l.baseline - FONT_PX * 0.85, x2, l.baseline + FONT_PX * 0.15]);
    }
  }
  return out;
}
