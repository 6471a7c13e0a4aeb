/** Number formatting for answers: thousands separators, a fixed number of decimals, no trailing zeros for amounts. */
export function formatAmount(v: number, maxDecimals = 2): string {
  const rounded = Number(v.toFixed(maxDecimals));
  return rounded.toLocaleString('en-US', { maximumFractionDigits: maxDecimals, minimumFractionDigits: 0 });
}

export function formatFixed(v: number, decimals: number): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: decimals, minimumFractionDigits: decimals });
}

/** Decimal places a question asks for ("round to one decimal place", "保留两位小数"), or null. */
export function requestedDecimals(text: string): number | null {
  const m = /(\w+|\d) decimal places?|保留(\S)位小数/i.exec(text);
  if (!m) return null;
  const word = (m[1] ?? m[2] ?? '').toLowerCase();
  const map: Record<string, number> = { zero: 0, no: 0, one: 1, two: 2, three: 3, four: 4, '0': 0, '1': 1, '2': 2, '3': 3, '4': 4, 一: 1, 两: 2, 二: 2, 三: 3, 四: 4 };
  return map[word] ?? null;
}
