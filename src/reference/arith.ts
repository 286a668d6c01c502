/** Plain bigint number theory shared by the reference, the parameter checks and the generators. */

export function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** base^e mod m for e ≥ 0, m > 0 (square-and-multiply). */
export function modPow(base: bigint, e: bigint, m: bigint): bigint {
  let result = 1n;
  base = ((base % m) + m) % m;
  while (e > 0n) {
    if (e & 1n) result = (result * base) % m;
    base = (base * base) % m;
    e >>= 1n;
  }
  return result;
}

/** a⁻¹ mod m by extended Euclid; throws if a is not invertible. */
export function modInv(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [((a % m) + m) % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new Error('not invertible');
  return ((s0 % m) + m) % m;
}

/** Integer square root: the largest x with x² ≤ n (n ≥ 0). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of negative');
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
