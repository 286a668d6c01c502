/**
 * Memory contracts shared by the MSM kernel generator (src/codegen/msm.ts) and the runtime
 * (src/msm/g1.ts): one definition, imported by both.
 */

/** Pair entry of g1_batch_add: dst, a, b (bit 0 = negate b), info (bits 0..29 caller data,
 * bit 30 caller flag, bit 31 set by the kernel when the sum is the point at infinity). */
export const PAIR_BYTES = 16;
export const INFO_INFINITY = 0x80000000;
export const INFO_TEMP = 0x40000000;
export const INFO_DATA_MASK = 0x3fffffff;

/** Bucket states in msm_accumulate (one byte per bucket). */
export const BUCKET_EMPTY = 0;
export const BUCKET_FULL = 1;
export const BUCKET_BUSY = 2;

/** Bytes of scratch g1_batch_add needs for `count` pairs with field elements of `EB` bytes:
 * prefix products and denominators (count elements each), 8 temporaries, count kind bytes. */
export function batchAddScratchBytes(count: number, EB: number): number {
  return (2 * count + 8) * EB + count + 8;
}

/** Field order of the msm_accumulate state block (i32 each, at 4·index). */
export const ACC_STATE_FIELDS = [
  'points', 'halves', 'carries', 'count', 'shift', 'c', 'buckets', 'bstate', 'pending', 'pairs', 'batch',
  'deferred', 'deferredCap', 'temps', 'freeTemps', 'scratch', 'pendingList', 'tempCap',
] as const;
export type AccStateField = (typeof ACC_STATE_FIELDS)[number];
export const accOffset = (f: AccStateField) => 4 * ACC_STATE_FIELDS.indexOf(f);

/** Scalar halves after the GLV split: magnitude < 2^127 (bit 127 holds the sign until
 * msm_expand_endo applies it to the point and clears it). */
export const HALF_MAGNITUDE_BITS = 127;
