/**
 * Memory contracts of the kernels, shared by their generators (src/codegen/) and the runtime
 * (src/msm/): one definition, imported by both. A kernel whose scratch grows with a count states
 * the function below that sizes it in its `.wat` header (src/codegen/scratch.ts).
 */

/** Pair entry of g1_batch_add: dst, a, b (bit 0 = negate b; bit 1 = b is the β·x slot of a shared-y
 * triple, its y two elements on), info (bits 0..28 caller data, bit 29 = b is packed (its x and y
 * PK-byte packed elements, bit 2 of b a tag), bit 30 caller flag, bit 31 set by the kernel when the
 * sum is the point at infinity). */
export const PAIR_BYTES = 16;
export const INFO_INFINITY = 0x80000000;
export const INFO_TEMP = 0x40000000;
export const INFO_PACKED = 0x20000000;
export const INFO_DATA_MASK = 0x1fffffff;

/** Bucket states in msm_accumulate (one byte per bucket). */
export const BUCKET_EMPTY = 0;
export const BUCKET_FULL = 1;
export const BUCKET_BUSY = 2;

/** Bytes of scratch g1_batch_add needs for `count` pairs with field elements of `EB` bytes:
 * prefix products and denominators (count elements each), 8 temporaries, count kind bytes.
 * msm_reduce_segments(…, S, …) runs batches of S pairs and needs the same for count = S. */
export function batchAddScratchBytes(count: number, EB: number): number {
  return (2 * count + 8) * EB + count + 8;
}

/** Bytes of scratch <f>_batch_inv needs for `count` elements of `EB` bytes: prefix products (count
 * elements), the running inverse and one temporary. */
export function batchInverseScratchBytes(count: number, EB: number): number {
  return (count + 2) * EB;
}

/** Field elements of g1_subgroup_check_batch's scratch besides its 5 per point: 8 temporaries and
 * the scratch of g1_is_in_subgroup (24 elements on every curve with a cofactor), its fallback. */
export const SUBGROUP_BATCH_FIXED_ELEMENTS = 32;

/** Bytes of scratch g1_subgroup_check_batch needs for `count` points with field elements of `EB`
 * bytes: accumulators and chain bases (2 points each), prefix products (1 element each), the fixed
 * elements above, one state byte per point. */
export function subgroupBatchScratchBytes(count: number, EB: number): number {
  return (5 * count + SUBGROUP_BATCH_FIXED_ELEMENTS) * EB + count + 8;
}

/** msm_straus (small MSMs, src/codegen/msm-straus.ts): wNAF width, odd multiples 1, 3, …, 2^(w−1) − 1
 * per point (2^(w−2) of them), digit bytes per half (positions 0…128 of a < 2^127 magnitude's wNAF,
 * rounded up), fixed scratch elements (accumulator, 2P, a negated point, inversion temporaries, β,
 * the XYZZ kernels' scratch). */
export const STRAUS_WNAF_WIDTH = 5;
export const STRAUS_TABLE = 1 << (STRAUS_WNAF_WIDTH - 2);
export const STRAUS_DIGIT_BYTES = 136;
export const STRAUS_FIXED_ELEMENTS = 24;

/** Bytes of scratch msm_straus needs for `count` points with coordinate elements of `EB` bytes: per
 * point its table in XYZZ and in affine (x, y, β·x), a denominator and a prefix product per entry
 * (9 elements per entry), one flag byte per entry and the wNAF digits of its two halves; the fixed
 * elements above. */
export function strausScratchBytes(count: number, EB: number): number {
  return count * (STRAUS_TABLE * (9 * EB + 1) + 2 * STRAUS_DIGIT_BYTES) + STRAUS_FIXED_ELEMENTS * EB + 8;
}

/** Field order of the msm_accumulate state block (i32 each, at 4·index). */
export const ACC_STATE_FIELDS = [
  'points', 'halves', 'count', 'shift', 'c', 'buckets', 'bstate', 'pending', 'pairs', 'batch',
  'deferred', 'deferredCap', 'temps', 'freeTemps', 'scratch', 'pendingList', 'tempCap',
  // the carry rule as 128-bit little-endian values in 32-bit words (index 17 → byte 68; the kernel
  // reads them with i64 loads, unaligned, which Wasm allows)
  'carryMask0', 'carryMask1', 'carryMask2', 'carryMask3', 'carryThreshold0', 'carryThreshold1', 'carryThreshold2', 'carryThreshold3',
  // how item i's point is found: POINT_LAYOUT_PAIRS, _TRIPLES or _PACKED
  'pointLayout',
] as const;
export type AccStateField = (typeof ACC_STATE_FIELDS)[number];
export const accOffset = (f: AccStateField) => 4 * ACC_STATE_FIELDS.indexOf(f);

/**
 * Point layouts msm_accumulate reads. PAIRS: item i is the affine point at points + i·2·EB (the
 * subgroup check's points, fixed-base tables: P_i and φ(P_i) interleaved). TRIPLES: the GLV halves
 * of point j share its y: triple j = [β·x, x, y] at points + j·3·EB (msm_expand_triples); item 2j is
 * (x, y), item 2j + 1 is φ(P_j) = (β·x, y). A third less memory than pairs of full images.
 */
export const POINT_LAYOUT_PAIRS = 0;
export const POINT_LAYOUT_TRIPLES = 1;
/**
 * PACKED: triples as TRIPLES, each element packed to packedElementBytes (the w-bit limbs
 * concatenated: 48 bytes instead of 52 for 381 bits on 30-bit limbs) by msm_expand_packed;
 * msm_accumulate unpacks a point when it copies it (into a bucket or a temporary) and passes it
 * packed as the b operand of a pair (INFO_PACKED), which g1_batch_add reads as it is.
 */
export const POINT_LAYOUT_PACKED = 2;

/** Bytes of a packed field element: the limbs' bits concatenated, whole 64-bit words (values < 2p);
 * an element of 64-bit limbs is already packed. */
export function packedElementBytes(field: { p: bigint; w: number; elementBytes: number }): number {
  if (field.w === 64) return field.elementBytes;
  let bits = 0;
  for (let v = 2n * field.p - 1n; v > 0n; v >>= 1n) bits++;
  return 8 * Math.ceil(bits / 64);
}

/** Scalar halves after the GLV split: magnitude < 2^127 (bit 127 holds the sign until
 * msm_expand_endo applies it to the point and clears it). */
export const HALF_MAGNITUDE_BITS = 127;

/**
 * The carry into signed-digit window k, without running windows 0 … k−1, for windows of any widths
 * c_0 … c_(k−1) below it (`below`; window j starts at bit t_j = c_0 + … + c_(j−1)). The recoding is
 * digit_j = w_j + carry_j − 2^(c_j)·carry_(j+1) with carry_(j+1) = [w_j + carry_j > 2^(c_j−1)]
 * (w_j the plain c_j-bit window). By induction on j, carry_k = [s mod 2^(t_k) > M_k] with
 * M_k = Σ_(j<k) 2^(c_j−1)·2^(t_j): a window value at least 2^(c_j−1) + 1 always carries (it exceeds
 * M_(j+1) whatever the bits below, which are < 2^(t_j)), 2^(c_j−1) carries iff the lower part does,
 * smaller never. Returns the mask of the low t_k bits (capped at 128) and M_k.
 */
export function carryIntoWindow(below: readonly number[]): { mask: bigint; threshold: bigint } {
  let threshold = 0n;
  let shift = 0;
  for (const c of below) {
    threshold += 1n << BigInt(shift + c - 1);
    shift += c;
  }
  return { mask: (1n << BigInt(Math.min(shift, 128))) - 1n, threshold };
}

/** carryIntoWindow for windows of one width c: the window at bit `shift` = k·c. */
export function carryInRule(shift: number, c: number): { mask: bigint; threshold: bigint } {
  if (shift % c !== 0) throw new Error('carryInRule: shift must be a multiple of c');
  return carryIntoWindow(Array.from({ length: shift / c }, () => c));
}

/** Writes a 128-bit value as four little-endian 32-bit words (the state block's layout). */
export function words128(v: bigint): number[] {
  return [0, 1, 2, 3].map((j) => Number((v >> BigInt(32 * j)) & 0xffffffffn) | 0);
}
