/**
 * Reference prime field F_p on plain bigints.
 *
 * This is the test oracle for the Wasm field kernels: every operation is written
 * in the most direct way possible and speed only matters to the extent that a
 * few thousand operations in a test run quickly enough.
 *
 * Conventions:
 * - Every operation accepts any bigint (negative or >= p) and returns the
 *   canonical representative in [0, p).
 * - `inv(0)` returns 0 (and so `div(a, 0)` returns 0). This is the same
 *   convention the Wasm kernels follow, which lets batch inversion and
 *   point-at-infinity handling proceed without branching; it is NOT a
 *   mathematical inverse, so callers that care must test for zero themselves.
 * - `sqrt(a)` returns `undefined` for quadratic non-residues; for squares it
 *   returns the root in [0, (p-1)/2] (the "smaller" of the two roots), so the
 *   result is deterministic.
 */

/** Anything that can produce `bits` uniformly random bits as a bigint. */
export type BigintSource = ((bits: number) => bigint) | { nextBigint(bits: number): bigint };

export class RefField {
  readonly p: bigint;
  /** Bit length of p. */
  readonly bits: number;
  /** Number of bytes needed to hold any element: ceil(bits / 8). */
  readonly bytes: number;

  // Tonelli–Shanks precomputation: p - 1 = q * 2^s with q odd.
  private readonly tsQ: bigint;
  private readonly tsS: number;
  private tsNonResidue: bigint | undefined;

  constructor(p: bigint) {
    if (typeof p !== 'bigint') throw new TypeError('RefField: modulus must be a bigint');
    if (p < 3n || p % 2n === 0n) throw new RangeError('RefField: modulus must be an odd prime (>= 3)');
    this.p = p;
    this.bits = p.toString(2).length;
    this.bytes = Math.ceil(this.bits / 8);
    let q = p - 1n;
    let s = 0;
    while (q % 2n === 0n) {
      q /= 2n;
      s++;
    }
    this.tsQ = q;
    this.tsS = s;
  }

  /** Canonical representative of a in [0, p). */
  mod(a: bigint): bigint {
    const r = a % this.p;
    return r < 0n ? r + this.p : r;
  }

  add(a: bigint, b: bigint): bigint {
    return this.mod(a + b);
  }

  sub(a: bigint, b: bigint): bigint {
    return this.mod(a - b);
  }

  neg(a: bigint): bigint {
    return this.mod(-a);
  }

  mul(a: bigint, b: bigint): bigint {
    return this.mod(a * b);
  }

  sqr(a: bigint): bigint {
    return this.mod(a * a);
  }

  /**
   * a^e. e may be any bigint: a negative exponent means inv(a)^|e| (so with the
   * inv(0) = 0 convention, pow(0, -1) = 0). pow(x, 0) = 1 for every x, including 0.
   */
  pow(a: bigint, e: bigint): bigint {
    if (e < 0n) return this.pow(this.inv(a), -e);
    let base = this.mod(a);
    let result = 1n;
    while (e > 0n) {
      if (e & 1n) result = (result * base) % this.p;
      base = (base * base) % this.p;
      e >>= 1n;
    }
    return result;
  }

  /**
   * Multiplicative inverse by the extended Euclidean algorithm.
   * Convention: inv(0) = 0 (see the module comment; the Wasm kernels do the same).
   */
  inv(a: bigint): bigint {
    a = this.mod(a);
    if (a === 0n) return 0n;
    // Invariant: old_r ≡ old_s * a and r ≡ s * a (mod p).
    let oldR = a;
    let r = this.p;
    let oldS = 1n;
    let s = 0n;
    while (r !== 0n) {
      const q = oldR / r;
      [oldR, r] = [r, oldR - q * r];
      [oldS, s] = [s, oldS - q * s];
    }
    if (oldR !== 1n) throw new Error(`RefField.inv: ${a} is not invertible mod ${this.p} (modulus not prime?)`);
    return this.mod(oldS);
  }

  /** a / b = a * inv(b); division by zero yields 0 by the inv(0) = 0 convention. */
  div(a: bigint, b: bigint): bigint {
    return this.mul(a, this.inv(b));
  }

  /** Euler's criterion. 0 counts as a square. */
  isSquare(a: bigint): boolean {
    a = this.mod(a);
    if (a === 0n) return true;
    return this.pow(a, (this.p - 1n) / 2n) === 1n;
  }

  /** Legendre symbol (a/p) in {-1, 0, 1}. */
  legendre(a: bigint): -1 | 0 | 1 {
    a = this.mod(a);
    if (a === 0n) return 0;
    return this.pow(a, (this.p - 1n) / 2n) === 1n ? 1 : -1;
  }

  /**
   * Square root, or undefined if a is not a square. Returns the root in
   * [0, (p-1)/2]. Uses a^((p+1)/4) when p ≡ 3 (mod 4), Tonelli–Shanks otherwise.
   */
  sqrt(a: bigint): bigint | undefined {
    a = this.mod(a);
    if (a === 0n) return 0n;
    if (!this.isSquare(a)) return undefined;
    let root: bigint;
    if (this.p % 4n === 3n) {
      root = this.pow(a, (this.p + 1n) / 4n);
    } else {
      root = this.tonelliShanks(a);
    }
    if (this.sqr(root) !== a) throw new Error('RefField.sqrt: internal error, root does not square back');
    return root > (this.p - 1n) / 2n ? this.p - root : root;
  }

  /** Tonelli–Shanks for a known non-zero quadratic residue a. */
  private tonelliShanks(a: bigint): bigint {
    const z = this.nonResidue();
    let m = this.tsS;
    let c = this.pow(z, this.tsQ);
    let t = this.pow(a, this.tsQ);
    let r = this.pow(a, (this.tsQ + 1n) / 2n);
    // Invariant: r^2 = a * t, and t has order dividing 2^(m-1).
    while (t !== 1n) {
      // Least i in (0, m) with t^(2^i) = 1.
      let i = 0;
      let t2i = t;
      while (t2i !== 1n) {
        t2i = this.sqr(t2i);
        i++;
        if (i === m) throw new Error('RefField.sqrt: Tonelli–Shanks failed (not a residue?)');
      }
      let b = c;
      for (let j = 0; j < m - i - 1; j++) b = this.sqr(b);
      m = i;
      c = this.sqr(b);
      t = this.mul(t, c);
      r = this.mul(r, b);
    }
    return r;
  }

  /** Smallest quadratic non-residue 2, 3, 4, ... (cached). */
  private nonResidue(): bigint {
    if (this.tsNonResidue === undefined) {
      let z = 2n;
      while (this.isSquare(z)) z++;
      this.tsNonResidue = z;
    }
    return this.tsNonResidue;
  }

  eq(a: bigint, b: bigint): boolean {
    return this.mod(a) === this.mod(b);
  }

  isZero(a: bigint): boolean {
    return this.mod(a) === 0n;
  }

  /** Canonical form check: 0 <= a < p. */
  isValid(a: bigint): boolean {
    return a >= 0n && a < this.p;
  }

  /**
   * Random element. Draws bits + 64 random bits and reduces mod p, so the bias
   * is below 2^-64 — irrelevant for tests.
   */
  random(rng: BigintSource): bigint {
    const n = this.bits + 64;
    const x = typeof rng === 'function' ? rng(n) : rng.nextBigint(n);
    return this.mod(x);
  }

  /** Little-endian encoding of the canonical value mod(a) into exactly len bytes. */
  toBytesLE(a: bigint, len: number = this.bytes): Uint8Array {
    return bigintToBytesLE(this.mod(a), len);
  }

  /** Big-endian encoding of the canonical value mod(a) into exactly len bytes. */
  toBytesBE(a: bigint, len: number = this.bytes): Uint8Array {
    return bigintToBytesLE(this.mod(a), len).reverse();
  }

  /** Decode little-endian bytes; throws RangeError if the value is not < p (non-canonical). */
  fromBytesLE(bytes: Uint8Array): bigint {
    return this.checkCanonical(bytesToBigintLE(bytes));
  }

  /** Decode big-endian bytes; throws RangeError if the value is not < p (non-canonical). */
  fromBytesBE(bytes: Uint8Array): bigint {
    return this.checkCanonical(bytesToBigintLE(Uint8Array.from(bytes).reverse()));
  }

  private checkCanonical(x: bigint): bigint {
    if (x >= this.p) throw new RangeError('RefField.fromBytes: value is not reduced mod p');
    return x;
  }
}

/** Encode a non-negative bigint into exactly len little-endian bytes; throws if it does not fit. */
export function bigintToBytesLE(x: bigint, len: number): Uint8Array {
  if (!Number.isInteger(len) || len < 0) throw new RangeError(`bigintToBytesLE: bad length ${len}`);
  if (x < 0n) throw new RangeError('bigintToBytesLE: negative value');
  const out = new Uint8Array(len);
  let v = x;
  for (let i = 0; i < len; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new RangeError(`bigintToBytesLE: value does not fit in ${len} bytes`);
  return out;
}

/** Decode little-endian bytes as an unsigned bigint (no reduction). */
export function bytesToBigintLE(bytes: Uint8Array): bigint {
  let x = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(bytes[i]!);
  return x;
}
