import type { StoredLine, StoredPage, StoredTable } from '../store/library.js';

/**
 * Reads a page (or a parsed table) of a financial statement into rows: a label and its numbers,
 * each number tied to the fiscal year of its column (from the column headers) and scaled by the
 * page's stated unit ("in millions", "单位：万元").
 */
export interface StatementValue {
  /** as printed, e.g. "(1,577)" */
  raw: string;
  /** the printed number, sign applied, not scaled */
  value: number;
  /** fiscal year of the column, when the header says */
  year: number | null;
}

export interface StatementRow {
  label: string;
  values: StatementValue[];
  /** the row as printed (for quoting) */
  text: string;
  /** the unit applies (false for per-share amounts and percentages) */
  scaled: boolean;
}

export interface StatementPage {
  docId: string;
  fileName: string;
  pageNumber: number;
  /** multiplier of the page's unit (1e6 for "in millions"), 1 when none is stated */
  unitScale: number;
  unitLabel: string | null;
  rows: StatementRow[];
  /** lower-cased text of the top of the page (statement titles) */
  heading: string;
  text: string;
}

interface Token {
  text: string;
  x: number;
}

interface VisualRow {
  y: number;
  tokens: Token[];
  text: string;
}

const NUMBER = /^\(?-?\$?\(?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?%?$|^\(?-?\$?\(?\d+(?:\.\d+)?\)?%?$/;
const DASH = /^[—–-]+$/;
const YEAR = /\b(19[5-9]\d|20[0-4]\d)\b/g;

export function readStatementPage(page: StoredPage, tables: readonly StoredTable[] = []): StatementPage {
  const rows: StatementRow[] = [];
  const visual = visualRows(page.lines);
  let header: { years: number[]; xs: number[] } | null = null;
  for (const vr of visual) {
    const years = headerYears(vr);
    if (years) {
      header = years;
      continue;
    }
    const row = rowFromTokens(vr, header);
    if (row) rows.push(row);
  }
  for (const t of tables) rows.push(...rowsFromTable(t));
  const unit = detectUnit(page.text);
  // statement titles are short lines near the top; long lines there are prose that merely names a statement
  const heading = visual
    .slice(0, 10)
    .filter((r) => r.text.length <= 90)
    .map((r) => r.text)
    .join(' ')
    .toLowerCase();
  return { docId: page.docId, fileName: page.fileName, pageNumber: page.pageNumber, unitScale: unit.scale, unitLabel: unit.label, rows, heading, text: page.text };
}

/** Lines whose vertical centres fall within each other's band form one printed row. */
function visualRows(lines: readonly StoredLine[]): VisualRow[] {
  const sorted = [...lines].filter((l) => l.t.trim()).sort((a, b) => cy(a) - cy(b));
  const groups: StoredLine[][] = [];
  for (const l of sorted) {
    const g = groups[groups.length - 1];
    if (g) {
      const ref = g[0]!;
      const h = Math.max(4, Math.min(ref.b[3] - ref.b[1], l.b[3] - l.b[1]));
      if (Math.abs(cy(l) - cy(ref)) < h * 0.5) {
        g.push(l);
        continue;
      }
    }
    groups.push([l]);
  }
  return groups.map((g) => {
    g.sort((a, b) => a.b[0] - b.b[0]);
    const tokens: Token[] = [];
    for (const l of g) tokens.push(...tokensOf(l));
    return { y: cy(g[0]!), tokens: mergeSplitNumbers(tokens).filter((t) => !/^[$¥￥]$/.test(t.text)), text: g.map((l) => l.t).join('  ') };
  });
}

function cy(l: StoredLine): number {
  return (l.b[1] + l.b[3]) / 2;
}

/** Whitespace tokens with an x estimated from the character offset inside the line. */
function tokensOf(l: StoredLine): Token[] {
  const out: Token[] = [];
  const len = Math.max(1, l.t.length);
  const w = l.b[2] - l.b[0];
  for (const m of l.t.matchAll(/\S+/g)) {
    const mid = (m.index ?? 0) + m[0].length / 2;
    out.push({ text: m[0], x: l.b[0] + (w * mid) / len });
  }
  return out;
}

/** "$ 1,577" and "( 1,577 )" print as several tokens; join the pieces of one number. */
function mergeSplitNumbers(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if ((t.text === '$' || t.text === '(' || t.text === '$(' || t.text === '¥' || t.text === '￥') && i + 1 < tokens.length && /^[\d(]/.test(tokens[i + 1]!.text)) {
      const n = tokens[i + 1]!;
      out.push({ text: (t.text.includes('(') ? '(' : '') + n.text, x: n.x });
      i++;
      continue;
    }
    if (t.text === ')' && out.length > 0 && NUMBER.test(out[out.length - 1]!.text + ')')) {
      out[out.length - 1]!.text += ')';
      continue;
    }
    if (t.text === '%' && out.length > 0 && /\d$/.test(out[out.length - 1]!.text)) {
      out[out.length - 1]!.text += '%';
      continue;
    }
    out.push({ ...t });
  }
  return out;
}

function headerYears(vr: VisualRow): { years: number[]; xs: number[] } | null {
  const years: number[] = [];
  const xs: number[] = [];
  let otherNumbers = 0;
  for (const t of vr.tokens) {
    const clean = t.text.replace(/^(FY|Fiscal|fiscal)/, '').replace(/[,.:;)(年度]+/g, '');
    if (/^(19[5-9]\d|20[0-4]\d)$/.test(clean)) {
      years.push(Number(clean));
      xs.push(t.x);
    } else if (/^\d{3,}/.test(clean.replace(/,/g, '')) && !/^\d{1,2}$/.test(clean)) otherNumbers++;
  }
  if (years.length < 2 || otherNumbers > 0) return null;
  return { years, xs };
}

export function parseNumber(raw: string): number | null {
  let s = raw.trim();
  if (DASH.test(s)) return 0;
  const neg = /^\(.*\)%?$/.test(s) || /^-/.test(s) || /^\$?\(/.test(s);
  s = s.replace(/[()$%,¥￥\s-]/g, '');
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const v = Number(s);
  return neg ? -v : v;
}

function isValueToken(text: string): boolean {
  return NUMBER.test(text) || DASH.test(text);
}

function rowFromTokens(vr: VisualRow, header: { years: number[]; xs: number[] } | null): StatementRow | null {
  // values are the trailing run of numeric tokens; the label is everything before it
  let i = vr.tokens.length;
  while (i > 0 && isValueToken(vr.tokens[i - 1]!.text)) i--;
  const valueTokens = vr.tokens.slice(i);
  const labelTokens = vr.tokens.slice(0, i);
  if (valueTokens.length === 0 || labelTokens.length === 0) return null;
  const label = labelTokens
    .map((t) => t.text)
    .join(' ')
    .replace(/[\s.:$…]+$/g, '')
    .replace(/\s*\(\s*(note|附注)\s*\d+\s*\)$/i, '')
    .trim();
  if (!/[A-Za-z\u3400-\u9fff]/.test(label)) return null;
  const values: StatementValue[] = [];
  for (const t of valueTokens) {
    const v = parseNumber(t.text);
    if (v === null) return null;
    values.push({ raw: t.text, value: v, year: null });
  }
  if (header) assignYears(values, valueTokens, header);
  const percent = valueTokens.some((t) => t.text.endsWith('%'));
  const perShare = /per (common )?share|每股|\beps\b/i.test(label);
  return { label, values, text: vr.text, scaled: !percent && !perShare };
}

function assignYears(values: StatementValue[], tokens: Token[], header: { years: number[]; xs: number[] }): void {
  if (values.length === header.years.length) {
    values.forEach((v, k) => (v.year = header.years[k]!));
    return;
  }
  // more or fewer columns than years (change columns, subtotals): nearest header by x
  const used = new Set<number>();
  tokens.forEach((t, k) => {
    let best = -1;
    let bestD = Infinity;
    header.xs.forEach((x, j) => {
      const d = Math.abs(x - t.x);
      if (d < bestD && !used.has(j)) {
        bestD = d;
        best = j;
      }
    });
    if (best >= 0 && !values[k]!.raw.endsWith('%')) {
      values[k]!.year = header.years[best]!;
      used.add(best);
    }
  });
}

function rowsFromTable(t: StoredTable): StatementRow[] {
  const grid = new Map<number, Map<number, string>>();
  for (const c of t.cells) {
    if (!grid.has(c.row)) grid.set(c.row, new Map());
    grid.get(c.row)!.set(c.col, c.text.trim());
  }
  const rowIds = [...grid.keys()].sort((a, b) => a - b);
  let colYears = new Map<number, number>();
  const out: StatementRow[] = [];
  for (const r of rowIds) {
    const cells = grid.get(r)!;
    const cols = [...cells.keys()].sort((a, b) => a - b);
    const years = new Map<number, number>();
    for (const c of cols) {
      const m = cells.get(c)!.match(YEAR);
      if (m && m.length === 1 && !/\d{1,3},\d{3}/.test(cells.get(c)!)) years.set(c, Number(m[0]));
    }
    if (years.size >= 2) {
      colYears = years;
      continue;
    }
    const label = (cells.get(cols[0]!) ?? '').replace(/[\s.:$]+$/g, '');
    if (!/[A-Za-z\u3400-\u9fff]/.test(label)) continue;
    const values: StatementValue[] = [];
    for (const c of cols.slice(1)) {
      const raw = cells.get(c)!.replace(/^\$\s*/, '');
      if (!raw) continue;
      const v = parseNumber(raw);
      if (v === null) continue;
      values.push({ raw, value: v, year: colYears.get(c) ?? null });
    }
    if (values.length === 0) continue;
    const perShare = /per (common )?share|每股/i.test(label);
    out.push({ label, values, text: cols.map((c) => cells.get(c)).join('  '), scaled: !perShare && !values.some((v) => v.raw.endsWith('%')) });
  }
  return out;
}

const UNIT_PATTERNS: { re: RegExp; scale: number; label: string }[] = [
  { re: /in\s+billions/i, scale: 1e9, label: 'billions' },
  { re: /in\s+millions|\(\s*(\$\s*)?millions\b|\$\s*millions|millions of (u\.s\. )?dollars|dollars in millions/i, scale: 1e6, label: 'millions' },
  { re: /in\s+thousands|\(\s*(\$\s*)?thousands\b|\$\s*000s?|\(000s?\)|thousands of (u\.s\. )?dollars|dollars in thousands/i, scale: 1e3, label: 'thousands' },
  { re: /单位[:：]\s*(人民币)?\s*亿元/, scale: 1e8, label: '亿元' },
  { re: /单位[:：]\s*(人民币)?\s*百万元/, scale: 1e6, label: '百万元' },
  { re: /单位[:：]\s*(人民币)?\s*万元/, scale: 1e4, label: '万元' },
  { re: /单位[:：]\s*(人民币)?\s*千元/, scale: 1e3, label: '千元' },
  { re: /单位[:：]\s*(人民币)?\s*元/, scale: 1, label: '元' },
];

export function detectUnit(text: string): { scale: number; label: string | null } {
  let best: { scale: number; label: string; at: number } | null = null;
  for (const u of UNIT_PATTERNS) {
    const m = u.re.exec(text);
    if (m && (best === null || m.index < best.at)) best = { scale: u.scale, label: u.label, at: m.index };
  }
  return best ? { scale: best.scale, label: best.label } : { scale: 1, label: null };
}
