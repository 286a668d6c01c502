/**
 * Hard inputs of a field inverse kernel, as raw Montgomery limbs in [0, 2p) (the kernels' input
 * range), for a layout with Montgomery radix R. The divsteps run on the raw value reduced to
 * [0, p), so every interesting integer is given twice: as the element (raw = v·R mod p) and as the
 * raw value itself; a few also non-canonically (raw + p). Integers: 0 (→ 0), 1, 2 and the small
 * ones, p − 1, p − 2, (p ± 1)/2 (= 1/2 and its negation), 1/3, powers of two and 2^a + 2^b (long
 * runs of zero bits, across limb boundaries of 26…64-bit limbs), 2^k − 1 (long runs of ones),
 * p − 2^k; then `random` random elements.
 */
import type { Rng } from '../../src/reference/rng.js';

export function inverseInputs(p: bigint, R: bigint, rng: Rng, random: number): bigint[] {
  const bits = p.toString(2).length;
  const ints: bigint[] = [0n, p - 1n, p - 2n, p - 3n, (p - 1n) / 2n, (p + 1n) / 2n];
  for (let v = 1n; v <= 17n; v++) ints.push(v);
  // 1/3 mod p: (p + 1)/3 or (2p + 1)/3, whichever is an integer
  ints.push((p % 3n === 2n ? p + 1n : 2n * p + 1n) / 3n);
  const ks = new Set<number>();
  for (let k = 1; k < bits; k += 11) ks.add(k);
  for (const b of [26, 29, 30, 62, 64]) for (let k = b; k < bits; k += b) ks.add(k);
  ks.add(bits - 1);
  for (const k of ks) {
    const t = 1n << BigInt(k);
    ints.push(t, t + 1n, t - 1n, p - t);
  }
  for (const [a, b] of [[0, bits - 1], [1, bits - 2], [63, 64], [61, 190], [bits - 2, bits - 1]]) ints.push((1n << BigInt(a)) + (1n << BigInt(b)));
  const raw: bigint[] = [];
  for (const v of ints) {
    const x = ((v % p) + p) % p;
    raw.push((x * R) % p, x);
  }
  for (const v of [1n, 2n, (p - 1n) / 2n, 1n << BigInt(bits - 2)]) raw.push(v + p);
  for (let i = 0; i < random; i++) raw.push(rng.nextBelow(p));
  return [...new Set(raw)];
}
