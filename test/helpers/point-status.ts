/**
 * Checking-kernel statuses in the tests' terms: (index << 2) | category, the category being
 * malformed (any PointEncodingError code), not on the curve or not in the subgroup. The kernels
 * report which part of an encoding was wrong (src/abi/codes.ts PointError); tests of that detail
 * read `decodeStatus` directly.
 */
import { MALFORMED, NO_ERROR, PointError, decodeStatus } from '../../src/abi/codes.js';

export const Cat = { malformed: 1, notOnCurve: 2, notInSubgroup: 3 } as const;

export function category(status: number): number {
  if (status === NO_ERROR) return NO_ERROR;
  const { index, code } = decodeStatus(status);
  const cat = code === PointError.notOnCurve ? Cat.notOnCurve : code === PointError.notInSubgroup ? Cat.notInSubgroup : MALFORMED[code] ? Cat.malformed : 0;
  if (cat === 0) throw new Error(`unknown status code ${code}`);
  return (index << 2) | cat;
}
