/** PDF transformation matrices [a b c d e f] (ISO 32000 8.3.4), shared by the text and graphics readers. */
export type Matrix = [number, number, number, number, number, number];

/** m × n: n applied in the space m maps from (pdf.js and PDF concatenate this way). */
export function multiplyMatrix(m: Matrix, n: ArrayLike<number>): Matrix {
  return [
    m[0] * n[0]! + m[2] * n[1]!,
    m[1] * n[0]! + m[3] * n[1]!,
    m[0] * n[2]! + m[2] * n[3]!,
    m[1] * n[2]! + m[3] * n[3]!,
    m[0] * n[4]! + m[2] * n[5]! + m[4],
    m[1] * n[4]! + m[3] * n[5]! + m[5],
  ];
}

export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}
