/**
 * BLS12-381 tuning values, in one place. Each value names the command that measured it.
 *
 * Limb width and Montgomery product variant (field kernels):
 *   measured with `npm run bench:field -- --variants` (all w × {cios-loop, karatsuba} in one run);
 *   w = 30 with one level of Karatsuba + separated reduction was fastest for both Fp and Fr.
 *   See docs/field.md for the table.
 */
export const bls12_381Tuning = {
  fp: { w: 30, mul: 'karatsuba' },
  fr: { w: 30, mul: 'karatsuba' },
  msmWindow: (halves: number) => msmWindow(halves),
} as const;

/**
 * MSM window size c by number of halves (2 per point after GLV). `undefined` = the cost model in
 * src/msm/plan.ts. Measured with `npm run bench:msm -- --sweep-windows` (see docs/msm.md).
 */
export function msmWindow(halves: number): number | undefined {
  void halves;
  return undefined;
}
