import type { TextLine } from '../core/page.js';
import type { VlmUnderstanding } from '../core/results.js';
import type { DocItem } from './merge-continuations.js';
import { readNumber, statedUnit } from './read-values.js';

function cx(l: TextLine): number {
  return (l.bbox[0] + l.bbox[2]) / 2;
}
function cy(l: TextLine): number {
  return (l.bbox[1] + l.bbox[3]) / 2;
}

/** Lines grouped by shared baseline band, top to bottom. */
function rowsOf(lines: readonly TextLine[]): TextLine[][] {
  const rows: TextLine[][] = [];
  for (const l of [...lines].sort((a, b) => cy(a) - cy(b))) {
    const row = rows[rows.length - 1];
    const h = l.bbox[3] - l.bbox[1];
    if (row && Math.abs(cy(row[0]!) - cy(l)) < 0.5 * h) row.push(l);
    else rows.push([l]);
  }
  for (const r of rows) r.sort((a, b) => a.bbox[0] - b.bbox[0]);
  return rows;
}

/**
 * A chart read from the text inside its box: title, y-axis ticks and title, x-axis category labels and title,
 * legend entries, and the values printed next to bars or points (matched to the nearest category label).
 * Only printed text is used; a figure with no text inside and no caption reads as null.
 */
export function readChart(item: DocItem): VlmUnderstanding | null {
  const part = item.parts[0]!;
  const lines = item.parts.flatMap((p) => p.lines).filter((l) => l.text.trim() !== '');
  if (lines.length === 0) return item.caption ? { kind: 'figure', title: item.caption, text: [] } : null;
  const [fx1, fy1, fx2, fy2] = part.bbox;
  const w = Math.max(1, fx2 - fx1);
  const h = Math.max(1, fy2 - fy1);
  const isNum = (l: TextLine): boolean => readNumber(l.text) !== null;
  const used = new Set<TextLine>();

  // y-axis ticks: numbers in the left part of the chart, right-aligned on one edge, at different heights.
  const leftNums = lines.filter((l) => isNum(l) && l.bbox[2] < fx1 + 0.3 * w);
  let ticks: TextLine[] = [];
  for (const a of leftNums) {
    const group = leftNums.filter((b) => Math.abs(b.bbox[2] - a.bbox[2]) < 0.03 * w);
    if (group.length > ticks.length) ticks = group;
  }
  if (new Set(ticks.map((t) => Math.round(cy(t)))).size < 2) ticks = [];
  ticks.sort((a, b) => cy(b) - cy(a));
  ticks.forEach((t) => used.add(t));
  const plotLeft = ticks.length ? Math.max(...ticks.map((t) => t.bbox[2])) : fx1;
  const plotBottom = ticks.length ? Math.max(...ticks.map((t) => t.bbox[3])) : fy1 + 0.6 * h;

  // x-axis labels: the highest row below the plot with two or more labels right of the y axis.
  const rows = rowsOf(lines.filter((l) => !used.has(l) && l.bbox[0] >= plotLeft - 2));
  const labelRow = rows.find((r) => cy(r[0]!) > Math.max(plotBottom - 0.05 * h, fy1 + 0.5 * h) && r.length >= 2) ?? [];
  labelRow.forEach((l) => used.add(l));
  const labelBottom = labelRow.length ? Math.max(...labelRow.map((l) => l.bbox[3])) : fy2;

  // Title: the top line when it is not a number (a caption stands in when there is none inside).
  const top = [...lines].filter((l) => !used.has(l) && !isNum(l)).sort((a, b) => a.bbox[1] - b.bbox[1])[0];
  let title: string | null = null;
  if (top && top.bbox[1] < fy1 + 0.2 * h && (labelRow.length === 0 || top.bbox[3] < Math.min(...labelRow.map((l) => l.bbox[1])))) {
    title = top.text.trim();
    used.add(top);
  }
  // Axis titles: a word left of the ticks (often turned upright), and a single line under the category labels.
  const yTitleLine = lines.find((l) => !used.has(l) && !isNum(l) && (l.bbox[2] <= plotLeft + 2 || l.bbox[3] - l.bbox[1] > 2.5 * (l.bbox[2] - l.bbox[0])) && ticks.length > 0);
  if (yTitleLine) used.add(yTitleLine);
  const below = rowsOf(lines.filter((l) => !used.has(l) && l.bbox[1] >= labelBottom - 1));
  let xTitle: string | null = null;
  const legendLines: TextLine[] = [];
  for (const r of below) {
    if (r.length === 1 && xTitle === null && !isNum(r[0]!) && Math.abs(cx(r[0]!) - (plotLeft + fx2) / 2) < 0.2 * w) {
      xTitle = r[0]!.text.trim();
      used.add(r[0]!);
    }
  }
  // Values: numbers inside the plot, each given to the nearest category label.
  const valueLines = lines.filter((l) => !used.has(l) && isNum(l) && l.bbox[0] >= plotLeft - 2 && l.bbox[3] <= labelBottom);
  valueLines.forEach((l) => used.add(l));
  for (const l of lines) if (!used.has(l) && !isNum(l)) legendLines.push(l);
  const legend = legendLines.sort((a, b) => a.bbox[1] - b.bbox[1] || a.bbox[0] - b.bbox[0]).map((l) => l.text.trim());

  const values = valueLines
    .sort((a, b) => cx(a) - cx(b))
    .map((l) => {
      const n = readNumber(l.text)!;
      let label: string | null = null;
      if (labelRow.length) {
        const nearest = labelRow.reduce((m, x) => (Math.abs(cx(x) - cx(l)) < Math.abs(cx(m) - cx(l)) ? x : m));
        const spacing = labelRow.length > 1 ? (cx(labelRow[labelRow.length - 1]!) - cx(labelRow[0]!)) / (labelRow.length - 1) : w;
        if (Math.abs(cx(nearest) - cx(l)) < 0.6 * spacing) label = nearest.text.trim();
      }
      return { label, value: n.value, unit: n.unit, text: l.text.trim() };
    });
  // Grouped bars: when every category has as many values as the legend has entries, the i-th value is series i.
  if (legend.length > 1 && labelRow.length) {
    const per = new Map<string, typeof values>();
    for (const v of values) if (v.label) per.set(v.label, [...(per.get(v.label) ?? []), v]);
    if ([...per.values()].every((vs) => vs.length === legend.length))
      for (const vs of per.values()) vs.forEach((v, i) => Object.assign(v, { series: legend[i] }));
  }

  if (ticks.length === 0 && labelRow.length === 0) {
    return { kind: 'figure', title: title ?? (item.caption || null), text: lines.map((l) => l.text.trim()) };
  }
  const yTitle = yTitleLine ? yTitleLine.text.trim() : null;
  return {
    kind: 'chart',
    title: title ?? (item.caption || null),
    unit: statedUnit([yTitle ?? '', title ?? '', item.caption].join(' ')),
    x_axis: { title: xTitle, labels: labelRow.map((l) => l.text.trim()) },
    y_axis: { title: yTitle, ticks: ticks.map((t) => readNumber(t.text)!.value) },
    legend,
    values,
  };
}
