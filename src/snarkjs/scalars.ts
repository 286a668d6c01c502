/**
 * Witness scalars by size. Circuit witnesses are mostly 0, 1 and small values (bits, counters);
 * pippin's MSM drops zero scalars in its compaction pass, and a set whose nonzero scalars are all
 * small needs only the low windows. One pass over the 32-byte little-endian scalars (8 words each).
 */
/**
 * How the scalars of a call split by size.
 *
 * @inline
 */
export interface ScalarSplit {
  /** scalars equal to 0 */
  zeros: number;
  /** scalars equal to 1 */
  ones: number;
  /** 2 ≤ s < 2^16 */
  smalls: number;
  /** s ≥ 2^16 */
  bigs: number;
  /** the bit length of the largest scalar */
  maxBits: number;
}

export function splitScalars(scalars: Uint8Array): ScalarSplit {
  const n = scalars.length >>> 5;
  const w = scalars.byteOffset % 4 === 0 ? new Uint32Array(scalars.buffer, scalars.byteOffset, n * 8) : new Uint32Array(scalars.slice().buffer);
  let zeros = 0;
  let ones = 0;
  let smalls = 0;
  let topWord = -1;
  let topValue = 0;
  for (let i = 0, o = 0; i < n; i++, o += 8) {
    let hi = 7;
    while (hi > 0 && w[o + hi] === 0) hi--;
    const v = w[o + hi];
    if (hi === 0) {
      if (v === 0) zeros++;
      else if (v === 1) ones++;
      else if (v < 0x10000) smalls++;
    }
    if (hi > topWord || (hi === topWord && v > topValue)) {
      topWord = hi;
      topValue = v;
    }
  }
  const maxBits = topValue === 0 ? 0 : topWord * 32 + (32 - Math.clz32(topValue));
  return { zeros, ones, smalls, bigs: n - zeros - ones - smalls, maxBits };
}
