/** GB 11643-1999 resident identity number: 17 digits + ISO 7064 MOD 11-2 check character. */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

export function residentIdCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK[sum % 11]!;
}

/** True for an 18-character number whose check character is right and whose birth date is plausible. */
export function isValidResidentId(id: string): boolean {
  if (!/^\d{17}[\dXx]$/.test(id)) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  if (year < 1880 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return false;
  return residentIdCheckChar(id.slice(0, 17)) === id[17]!.toUpperCase();
}
