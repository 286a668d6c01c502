/**
 * Tiny deterministic PRNG for tests: SplitMix64 over BigInt.
 *
 * Not cryptographic. Its only purpose is reproducibility: the same seed always
 * yields the same stream, so a failing randomized test can be replayed.
 */

const MASK64 = (1n << 64n) - 1n;
const GOLDEN_GAMMA = 0x9e3779b97f4a7c15n;

export interface Rng {
  /** Uniform integer in [0, 2^bits). `bits` must be a non-negative integer. */
  nextBigint(bits: number): bigint;
  /** Uniform integer in [0, 2^32). */
  nextU32(): number;
  /** Uniform integer in [0, n) for n > 0 (rejection sampling, no bias). */
  nextBelow(n: bigint): bigint;
}

export function makeRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`makeRng: seed must be a safe integer, got ${seed}`);
  let state = BigInt.asUintN(64, BigInt(seed));

  // One SplitMix64 step: advance by the golden gamma, then mix.
  const next64 = (): bigint => {
    state = (state + GOLDEN_GAMMA) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };

  const nextBigint = (bits: number): bigint => {
    if (!Number.isInteger(bits) || bits < 0) throw new RangeError(`nextBigint: bad bit count ${bits}`);
    let acc = 0n;
    let have = 0;
    while (have < bits) {
      acc = (acc << 64n) | next64();
      have += 64;
    }
    // Keep the low `bits` bits (all 64-bit words are uniform, so any subset is).
    return acc & ((1n << BigInt(bits)) - 1n);
  };

  const nextU32 = (): number => Number(next64() >> 32n);

  const nextBelow = (n: bigint): bigint => {
    if (n <= 0n) throw new RangeError('nextBelow: n must be positive');
    const bits = n.toString(2).length;
    for (;;) {
      const x = nextBigint(bits);
      if (x < n) return x;
    }
  };

  return { nextBigint, nextU32, nextBelow };
}
