import type { VlmUnderstanding } from '../core/results.js';
import type { DocItem } from './merge-continuations.js';
import { isPeriod, readNumber, statedUnit } from './read-values.js';

/**
 * A structured reading of a table from its cells only: header labels, the stated unit, and one record per
 * numeric cell with the row's item and the column's period (or the other way round when periods run down the
 * rows). Nothing is added that the cells do not say; a table with no cells reads as null. `context` is text printed
 * right above the table (a "(In millions)" line), read for the unit only.
 */
export function readTable(item: DocItem, context = ''): VlmUnderstanding | null {
  const cells = item.cells ?? [];
  const rows = item.rows ?? 0;
  const cols = item.cols ?? 0;
  if (cells.length === 0 || rows === 0 || cols === 0) return null;
  const m: string[][] = Array.from({ length: rows }, () => new Array<string>(cols).fill(''));
  const spanned: boolean[][] = Array.from({ length: rows }, () => new Array<boolean>(cols).fill(false));
  // A header cell across every column is the table's own title, not a column label.
  const titleCells = new Set(cells.filter((c) => c.colSpan >= cols && cols > 1));
  for (const c of cells) {
    if (titleCells.has(c)) continue;
    for (let r = c.row; r < Math.min(rows, c.row + c.rowSpan); r++)
      for (let k = c.col; k < Math.min(cols, c.col + c.colSpan); k++) {
        m[r]![k] = c.text.trim();
        spanned[r]![k] = r !== c.row || k !== c.col;
      }
  }
  const numericRow = (r: number): boolean => {
    if (m[r]!.every((t) => t === '')) return false;
    const vals = m[r]!.slice(1).filter((t) => t !== '');
    return vals.length > 0 && vals.filter((t) => readNumber(t) !== null && !isPeriod(t)).length >= vals.length / 2;
  };
  let headerRows = 0;
  while (headerRows < Math.min(3, rows - 1) && !numericRow(headerRows)) headerRows++;
  const columns = Array.from({ length: cols }, (_, k) => {
    const parts: string[] = [];
    for (let r = 0; r < headerRows; r++) {
      const t = m[r]![k]!;
      if (t && parts[parts.length - 1] !== t) parts.push(t);
    }
    return parts.join(' ');
  });
  const tableUnit = statedUnit([item.caption, item.note, ...[...titleCells].map((c) => c.text), ...columns, m[0]![0] ?? '', context].join(' '));
  const exceptPerShare = /except\s+(for\s+)?per[- ]share/i.test([item.caption, item.note, context].join(' '));
  const colPeriods = columns.slice(1).filter((c) => c !== '');
  const periodsAcross = colPeriods.length > 0 && colPeriods.filter((c) => isPeriod(c.replace(/[(（][^)）]*[)）]/g, '').trim())).length >= colPeriods.length / 2;
  const rowLabels = m.slice(headerRows).map((r) => r[0]!);
  const periodsDown = !periodsAcross && rowLabels.filter((t) => t !== '').length > 0 && rowLabels.filter((t) => isPeriod(t)).length >= rowLabels.filter((t) => t !== '').length / 2;

  const records: Record<string, unknown>[] = [];
  let section = '';
  for (let r = headerRows; r < rows; r++) {
    const label = m[r]![0]!;
    const vals = m[r]!.slice(1);
    if (vals.every((v) => v === '') && label) {
      section = label; // a row label with no values heads the rows under it
      continue;
    }
    for (let k = 1; k < cols; k++) {
      if (spanned[r]![k]) continue;
      const raw = m[r]![k]!;
      const n = readNumber(raw);
      if (!n) continue;
      const colUnit = statedUnit(columns[k]!);
      const header = columns[k]!.replace(/[(（][^)）]*[)）]/g, '').trim();
      const rec: Record<string, unknown> = {};
      if (periodsDown) {
        rec.item = header || null;
        rec.period = label || null;
      } else {
        rec.item = label ? (section && section !== label ? `${section} / ${label}` : label) : section || null;
        if (periodsAcross) rec.period = header || null;
        else {
          rec.period = null;
          rec.column = header || null;
        }
      }
      rec.value = n.value;
      // "(In millions, except per share amounts)": the stated unit does not hold for per-share rows.
      const perShare = exceptPerShare && /per[- ]share|\bEPS\b|每股/i.test(`${section} ${label}`);
      rec.unit = n.unit ?? colUnit ?? (perShare ? null : tableUnit);
      rec.text = raw;
      records.push(rec);
    }
  }
  const reading: Record<string, unknown> = { kind: 'table', title: item.caption || null, unit: tableUnit, columns, row_count: rows - headerRows };
  if (records.length > 0) reading.records = records;
  else {
    reading.rows = m.slice(headerRows).map((r) => Object.fromEntries(r.map((t, k) => [columns[k] || `column ${k + 1}`, t])));
  }
  return reading;
}
