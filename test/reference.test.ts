/**
 * The plain-bigint reference (field, curve, MSM, GLV) checked against an
 * independent implementation, @noble/curves, on seeded random inputs plus the
 * usual edge cases. Every RNG is seeded so failures reproduce.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 as noble } from '@noble/curves/bls12-381.js';

import { RefField, bigintToBytesLE, bytesToBigintLE } from '../src/reference/field.js';
import { RefCurve, glvBasis, type Affine, type AffinePoint } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { bls12_381 } from '../src/curves/bls12-381.js';
import { checkCurveParams, isProbablePrime } from '../src/curves/check.js';
import type { CurveParams } from '../src/curves/types.js';

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const NP = noble.G1.Point;
type NoblePoint = InstanceType<typeof NP>;

const curve = new RefCurve(bls12_381);
const { p, r } = bls12_381;
/** BLS parameter z (negative for BLS12-381). */
const Z = -0xd201000000010000n;

/** Trial division; independent of the Miller–Rabin under test. */
const isSmallPrime = (n: number): boolean => {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
};
const toNoble = (P: Affine): NoblePoint => (P === null ? NP.ZERO : NP.fromAffine({ x: P.x, y: P.y }));
const fromNoble = (P: NoblePoint): Affine => {
  if (P.is0()) return null;
  const { x, y } = P.toAffine();
  return { x, y };
};
/** Noble k·P for any integer k (noble only accepts 0 <= k < r). */
const nobleMul = (P: NoblePoint, k: bigint): NoblePoint => {
  const kk = ((k % r) + r) % r;
  return P.multiplyUnsafe(kk);
};
const assertPointEq = (ours: Affine, theirs: NoblePoint, msg: string): void => {
  assert.deepEqual(ours === null ? null : { x: ours.x, y: ours.y }, fromNoble(theirs), msg);
};

// ---------------------------------------------------------------------------------------------
describe('rng', () => {
  it('is deterministic per seed and respects ranges', () => {
    const a = makeRng(42);
    const b = makeRng(42);
    const c = makeRng(43);
    const sa = Array.from({ length: 20 }, () => a.nextBigint(200));
    const sb = Array.from({ length: 20 }, () => b.nextBigint(200));
    const sc = Array.from({ length: 20 }, () => c.nextBigint(200));
    assert.deepEqual(sa, sb);
    assert.notDeepEqual(sa, sc);
    const g = makeRng(7);
    let orAll = 0n;
    for (let i = 0; i < 500; i++) {
      const bits = i % 130;
      const x = g.nextBigint(bits);
      assert.ok(x >= 0n && x < 1n << BigInt(bits), `nextBigint(${bits}) out of range`);
      if (bits === 129) orAll |= x;
      const u = g.nextU32();
      assert.ok(Number.isInteger(u) && u >= 0 && u < 2 ** 32, 'Number.isInteger(u) && u >= 0 && u < 2 ** 32');
      const n = BigInt(1 + (i % 17));
      const y = g.nextBelow(n);
      assert.ok(y >= 0n && y < n, 'y >= 0n && y < n');
    }
    // Top bit of 129-bit draws gets set at some point (i.e. bits are not truncated to 128).
    assert.equal(orAll >> 128n, 1n);
  });
});

// ---------------------------------------------------------------------------------------------
describe('curve parameters', () => {
  it('checkCurveParams(bls12_381) passes', () => {
    checkCurveParams(bls12_381);
  });

  it('agree with @noble/curves and with the BLS parameter z', () => {
    const c = NP.CURVE();
    assert.equal(bls12_381.name, 'bls12-381');
    assert.equal(p, c.p);
    assert.equal(r, c.n);
    assert.equal(bls12_381.h1, c.h);
    assert.equal(bls12_381.a, c.a);
    assert.equal(bls12_381.b, c.b);
    assert.equal(bls12_381.G1.x, c.Gx);
    assert.equal(bls12_381.G1.y, c.Gy);
    assert.equal(p, noble.fields.Fp.ORDER);
    assert.equal(r, noble.fields.Fr.ORDER);
    assert.equal(r, Z ** 4n - Z ** 2n + 1n);
    assert.equal(bls12_381.h1, (Z - 1n) ** 2n / 3n);
    assert.equal(bls12_381.lambda, Z * Z - 1n);
    assert.ok(Object.isFrozen(bls12_381) && Object.isFrozen(bls12_381.G1), 'Object.isFrozen(bls12_381) && Object.isFrozen(bls12_381.G1)');
  });

  it('lambda·P = endo(P) on random subgroup points (noble scalar mul)', () => {
    const rng = makeRng(11);
    for (let i = 0; i < 20; i++) {
      const P = NP.BASE.multiply(1n + rng.nextBelow(r - 1n));
      assertPointEq(curve.endo(fromNoble(P)), P.multiply(bls12_381.lambda), `endo #${i}`);
    }
  });

  it('rejects tampered parameters', () => {
    const Fp = new RefField(p);
    const Fr = new RefField(r);
    const bad: [string, CurveParams][] = [
      ['other beta', { ...bls12_381, beta: Fp.sqr(bls12_381.beta) }],
      ['other lambda', { ...bls12_381, lambda: Fr.sqr(bls12_381.lambda) }],
      ['beta = 1', { ...bls12_381, beta: 1n }],
      ['G off curve', { ...bls12_381, G1: { x: bls12_381.G1.x, y: bls12_381.G1.y + 1n } }],
      ['wrong cofactor', { ...bls12_381, h1: bls12_381.h1 + 1n }],
      ['composite r', { ...bls12_381, r: r + 2n }],
      ['composite p', { ...bls12_381, p: p + 2n }],
      ['G not of order r', { ...bls12_381, G1: firstCurvePointOutsideSubgroup() }],
    ];
    for (const [what, params] of bad) assert.throws(() => checkCurveParams(params), Error, what);
  });

  it('isProbablePrime on small and known values', () => {
    for (let n = 0; n < 3000; n++) assert.equal(isProbablePrime(BigInt(n)), isSmallPrime(n), `n = ${n}`);
    // Carmichael numbers and strong pseudoprimes to several bases.
    for (const n of [561n, 1105n, 1729n, 2047n, 3215031751n, 3825123056546413051n, 318665857834031151167461n]) {
      assert.equal(isProbablePrime(n), false, `${n}`);
    }
    assert.equal(isProbablePrime((1n << 127n) - 1n), true);
    assert.equal(isProbablePrime((1n << 128n) + 1n), false);
  });
});

// ---------------------------------------------------------------------------------------------
for (const [label, modulus, nf, count, seed] of [
  ['Fp', p, noble.fields.Fp, 2000, 1],
  ['Fr', r, noble.fields.Fr, 2000, 2],
] as const) {
  describe(`RefField(${label}) vs noble`, () => {
    const F = new RefField(modulus);
    const hard = [0n, 1n, 2n, 3n, modulus - 1n, modulus - 2n, (modulus - 1n) / 2n, (modulus + 1n) / 2n, 1n << BigInt(F.bits - 1)];
    const rng = makeRng(seed);
    const values: bigint[] = [...hard];
    while (values.length < count) values.push(F.random(rng));
    const partner = (i: number): bigint => values[(i * 7 + 3) % values.length]!;

    it('metadata and random() coverage', () => {
      // random() must cover the whole range: the largest of ~2000 draws is within 1% of p.
      const max = values.slice(hard.length).reduce((m, v) => (v > m ? v : m), 0n);
      assert.ok(max > (modulus * 99n) / 100n && max < modulus, 'random() range');
      assert.ok(values.every((v) => F.isValid(v)), 'values.every((v) => F.isValid(v))');
      assert.equal(F.p, modulus);
      assert.equal(F.bits, nf.BITS);
      assert.equal(F.bytes, nf.BYTES);
    });

    it('add, sub, neg, mul, sqr, div, eq, isZero', () => {
      for (let i = 0; i < values.length; i++) {
        const a = values[i]!;
        const b = partner(i);
        assert.equal(F.add(a, b), nf.add(a, b), `add ${a} ${b}`);
        assert.equal(F.sub(a, b), nf.sub(a, b), `sub ${a} ${b}`);
        assert.equal(F.neg(a), nf.neg(a), `neg ${a}`);
        assert.equal(F.mul(a, b), nf.mul(a, b), `mul ${a} ${b}`);
        assert.equal(F.sqr(a), nf.sqr(a), `sqr ${a}`);
        assert.equal(F.isZero(a), nf.is0(a));
        assert.equal(F.eq(a, b), nf.eql(a, b));
        assert.equal(F.eq(a, a + modulus), true);
        if (b !== 0n) assert.equal(F.div(a, b), nf.div(a, b), `div ${a} ${b}`);
      }
    });

    it('reduces unreduced and negative inputs like noble.create', () => {
      for (let i = 0; i < 500; i++) {
        const x = rng.nextBigint(2 * F.bits + 10) - (1n << BigInt(2 * F.bits + 9));
        assert.equal(F.mod(x), nf.create(x), `mod ${x}`);
        assert.equal(F.mul(x, 3n), nf.mul(nf.create(x), 3n));
        assert.ok(F.isValid(F.add(x, x)), 'F.isValid(F.add(x, x))');
      }
    });

    it('inv (and the inv(0) = 0 convention)', () => {
      assert.equal(F.inv(0n), 0n);
      assert.equal(F.inv(modulus), 0n);
      assert.equal(F.div(5n, 0n), 0n);
      assert.equal(F.pow(0n, -1n), 0n);
      for (const a of values) {
        if (a === 0n) continue;
        const ai = F.inv(a);
        assert.equal(ai, nf.inv(a), `inv ${a}`);
        assert.equal(F.mul(a, ai), 1n);
      }
      assert.equal(F.inv(-1n), modulus - 1n);
    });

    it('pow', () => {
      const exps = [0n, 1n, 2n, 3n, modulus - 1n, modulus - 2n, modulus, modulus + 1n];
      for (let i = 0; i < 200; i++) exps.push(rng.nextBigint(1 + (i % F.bits) + 2));
      for (let i = 0; i < exps.length; i++) {
        const a = values[(i * 13) % values.length]!;
        const e = exps[i]!;
        assert.equal(F.pow(a, e), nf.pow(a, e), `pow ${a} ^ ${e}`);
      }
      assert.equal(F.pow(0n, 0n), 1n);
      for (let i = 1; i < 30; i++) {
        const a = values[i]!;
        if (a === 0n) continue;
        assert.equal(F.pow(a, -5n), nf.inv(nf.pow(a, 5n)), 'negative exponent');
      }
    });

    it('sqrt / isSquare', () => {
      let squares = 0;
      let nonSquares = 0;
      for (let i = 0; i < values.length; i++) {
        // Half the time a guaranteed square, half the time a random element.
        const a = i % 2 === 0 ? F.sqr(values[i]!) : values[i]!;
        const s = F.sqrt(a);
        let theirs: bigint | undefined;
        try {
          theirs = nf.sqrt(a);
        } catch {
          theirs = undefined;
        }
        if (theirs === undefined) {
          assert.equal(s, undefined, `sqrt(${a}) should not exist`);
          assert.equal(F.isSquare(a), false);
          assert.equal(F.legendre(a), -1);
          nonSquares++;
        } else {
          assert.notEqual(s, undefined, `sqrt(${a}) should exist`);
          assert.equal(F.sqr(s!), a);
          assert.equal(F.sqr(theirs), a);
          assert.ok(s === theirs || s === nf.neg(theirs), 'same root up to sign');
          assert.ok(s! <= (modulus - 1n) / 2n, 'canonical (small) root');
          assert.equal(F.isSquare(a), true);
          squares++;
        }
      }
      assert.ok(squares > values.length / 2 && nonSquares > values.length / 8, `${squares} / ${nonSquares}`);
      assert.equal(F.sqrt(0n), 0n);
      assert.equal(F.sqrt(1n), 1n);
    });

    it('bytes', () => {
      for (let i = 0; i < 300; i++) {
        const a = values[i]!;
        const be = F.toBytesBE(a);
        assert.deepEqual(be, nf.toBytes(a), `toBytesBE ${a}`);
        assert.equal(nf.fromBytes(be), a);
        assert.equal(F.fromBytesBE(be), a);
        const le = F.toBytesLE(a, 64);
        assert.equal(le.length, 64);
        assert.deepEqual(le.subarray(0, F.bytes), be.slice().reverse());
        assert.equal(F.fromBytesLE(le), a);
        assert.equal(F.fromBytesLE(F.toBytesLE(-a)), F.neg(a));
      }
      assert.throws(() => F.fromBytesLE(bigintToBytesLE(modulus, F.bytes)), RangeError);
      assert.throws(() => F.fromBytesBE(bigintToBytesLE(modulus + 5n, F.bytes).reverse()), RangeError);
      assert.throws(() => F.toBytesLE(modulus - 1n, F.bytes - 1), RangeError);
      assert.equal(bytesToBigintLE(new Uint8Array([1, 2, 3])), 0x030201n);
    });
  });
}

// ---------------------------------------------------------------------------------------------
/**
 * A toy a = 0 curve over a ~14-bit prime with a small subgroup order r (so the Hasse interval
 * holds several multiples of r), with beta/lambda found by exhaustive search. Exercises
 * checkCurveParams and RefCurve away from BLS12-381, where every parameter is independently
 * brute-forced.
 */
function buildToyCurve(): CurveParams {
  const legendre = (a: number, q: number): number => {
    let res = 1;
    let base = a % q;
    let e = (q - 1) / 2;
    while (e > 0) {
      if (e & 1) res = (res * base) % q;
      base = (base * base) % q;
      e >>= 1;
    }
    return res === 1 ? 1 : res === 0 ? 0 : -1;
  };
  const primeFactors = (n: number): number[] => {
    const out: number[] = [];
    for (let d = 2; d * d <= n; d++) while (n % d === 0) (out.push(d), (n /= d));
    if (n > 1) out.push(n);
    return out;
  };
  let candidates = 0;
  for (let pp = 10009; pp < 20000; pp += 6) {
    if (!isSmallPrime(pp)) continue; // pp ≡ 1 (mod 6): cube roots of unity exist
    for (let b = 1; b < 20; b++) {
      // A correct search succeeds within the first few curves; give up early if curve arithmetic is broken.
      if (++candidates > 20) throw new Error('buildToyCurve: no suitable toy curve found');
      let count = 1; // point at infinity
      for (let x = 0; x < pp; x++) count += 1 + legendre((((x * x) % pp) * x + b) % pp, pp);
      const fac = primeFactors(count);
      const rr = fac.find((q) => q % 3 === 1 && q >= 7 && q * q < pp && fac.filter((f) => f === q).length === 1);
      if (rr === undefined) continue;
      const F = new RefField(BigInt(pp));
      const R = BigInt(rr);
      const h = BigInt(count) / R;
      const proto: CurveParams = { name: 'toy', p: BigInt(pp), r: R, a: 0n, b: BigInt(b), G1: { x: 0n, y: 0n }, h1: h, beta: 1n, lambda: 1n };
      const tc = new RefCurve({ ...proto, lambda: 2n });
      let G: Affine = null;
      for (let x = 0n; G === null && x < 200n; x++) {
        const y = F.sqrt(x * x * x + BigInt(b));
        if (y !== undefined) G = tc.mul({ x, y }, h);
      }
      const cube = (m: bigint): bigint[] => {
        const out: bigint[] = [];
        for (let c = 2n; c < m; c++) if ((c * c * c) % m === 1n) out.push(c);
        return out;
      };
      if (G === null) continue;
      for (const beta of cube(BigInt(pp))) {
        for (const lambda of cube(R)) {
          if (tc.eq(tc.mul(G, lambda), { x: F.mul(beta, G.x), y: G.y })) {
            return { ...proto, G1: { x: G.x, y: G.y }, beta, lambda };
          }
        }
      }
    }
  }
  throw new Error('buildToyCurve: no suitable toy curve found');
}

describe('toy curve (exhaustively built)', () => {
  const toy = buildToyCurve();

  it('checkCurveParams accepts it', () => {
    checkCurveParams(toy);
  });

  it('checkCurveParams catches a wrong cofactor that still fits the Hasse bound', () => {
    const hasse = (h: bigint): boolean => (toy.p + 1n - h * toy.r) ** 2n <= 4n * toy.p;
    const wrong = [toy.h1 - 1n, toy.h1 + 1n].filter((h) => h > 0n && hasse(h));
    assert.ok(wrong.length > 0, 'wrong.length > 0');
    for (const h1 of wrong) assert.throws(() => checkCurveParams({ ...toy, h1 }), /\(h1·r\)·Q/);
  });

  it('RefCurve on the toy curve: subgroup mul, GLV split for every scalar, msm', () => {
    const tc = new RefCurve(toy);
    const G = tc.G;
    // Brute-force multiples of G by repeated addition.
    const multiples: Affine[] = [null];
    for (let i = 1n; i <= toy.r; i++) multiples.push(tc.add(multiples[multiples.length - 1], G));
    assert.equal(multiples[Number(toy.r)], null);
    for (let k = 0n; k < toy.r; k++) {
      assert.deepEqual(tc.mul(G, k), multiples[Number(k)]);
      if (k > 0n) assert.notEqual(multiples[Number(k)], null);
      const { k1, k2 } = tc.glvSplit(k);
      assert.equal((((k1 + k2 * toy.lambda - k) % toy.r) + toy.r) % toy.r, 0n);
      assert.ok(abs(k1) <= tc.glvBound[0] && abs(k2) <= tc.glvBound[1], 'abs(k1) <= tc.glvBound[0] && abs(k2) <= tc.glvBound[1]');
      assert.ok(tc.eq(tc.add(tc.mul(G, k1), tc.mul(tc.endo(G), k2)), multiples[Number(k)]), 'tc.eq(tc.add(tc.mul(G, k1), tc.mul(tc.endo(G), k2)), multiples[Number(k)])');
    }
    const H = multiples[3]!;
    assert.deepEqual(tc.msmNaive([G, H, G], [2n, 5n, toy.r + 1n]), multiples[Number((3n + 15n) % toy.r)]);
  });
});

describe('RefField on small primes (exhaustive)', () => {
  // 97 ≡ 1 (mod 32) and 257 = 2^8 + 1 exercise Tonelli–Shanks with large 2-adicity; 103 ≡ 3 (mod 4).
  for (const q of [3n, 5n, 13n, 17n, 97n, 103n, 257n, 7681n]) {
    it(`p = ${q}`, () => {
      const F = new RefField(q);
      const squares = new Set<bigint>();
      for (let x = 0n; x < q; x++) squares.add((x * x) % q);
      for (let a = 0n; a < q; a++) {
        const s = F.sqrt(a);
        if (squares.has(a)) {
          assert.notEqual(s, undefined, `sqrt(${a}) mod ${q}`);
          assert.equal((s! * s!) % q, a);
          assert.ok(s! <= (q - 1n) / 2n, 's! <= (q - 1n) / 2n');
        } else {
          assert.equal(s, undefined, `sqrt(${a}) mod ${q} must not exist`);
        }
        assert.equal(F.isSquare(a), squares.has(a));
        if (a !== 0n) assert.equal((F.inv(a) * a) % q, 1n);
        assert.equal(F.pow(a, q - 1n), a === 0n ? 0n : 1n);
      }
    });
  }
  it('rejects even / tiny moduli', () => {
    assert.throws(() => new RefField(2n), RangeError);
    assert.throws(() => new RefField(100n), RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
function firstCurvePointOutsideSubgroup(skip = 0): AffinePoint {
  const Fp = curve.Fp;
  for (let x = 1n; ; x++) {
    const y = Fp.sqrt(Fp.add(Fp.pow(x, 3n), bls12_381.b));
    if (y === undefined) continue;
    if (skip-- > 0) continue;
    return { x, y };
  }
}

describe('RefCurve(bls12-381) vs noble', () => {
  const rng = makeRng(3);
  const randomNoble = (): NoblePoint => NP.BASE.multiply(1n + rng.nextBelow(r - 1n));

  it('generator and basic predicates', () => {
    assertPointEq(curve.G, NP.BASE, 'G');
    assert.ok(curve.isOnCurve(curve.G), 'curve.isOnCurve(curve.G)');
    assert.ok(curve.isOnCurve(null), 'curve.isOnCurve(null)');
    assert.ok(!curve.isOnCurve({ x: curve.G.x, y: curve.G.y + 1n }), '!curve.isOnCurve({ x: curve.G.x, y: curve.G.y + 1n })');
    assert.ok(!curve.isOnCurve({ x: curve.G.x + p, y: curve.G.y }), 'non-canonical coordinates are rejected');
    assert.ok(curve.isInSubgroup(curve.G), 'curve.isInSubgroup(curve.G)');
    assert.ok(curve.isInSubgroup(null), 'curve.isInSubgroup(null)');
  });

  it('add and double on random points', () => {
    for (let i = 0; i < 300; i++) {
      const P = randomNoble();
      const Q = i % 10 === 0 ? P : randomNoble();
      const Pa = fromNoble(P);
      const Qa = fromNoble(Q);
      const sum = curve.add(Pa, Qa);
      assertPointEq(sum, P.add(Q), `add #${i}`);
      assert.ok(curve.isOnCurve(sum), 'curve.isOnCurve(sum)');
      assertPointEq(curve.double(Pa), P.double(), `double #${i}`);
      assertPointEq(curve.sub(Pa, Qa), P.subtract(Q), `sub #${i}`);
      assertPointEq(curve.neg(Pa), P.negate(), `neg #${i}`);
    }
  });

  it('hard cases: O + P, P + O, O + O, P + P, P + (-P)', () => {
    const P = fromNoble(randomNoble())!;
    assert.deepEqual(curve.add(null, P), P);
    assert.deepEqual(curve.add(P, null), P);
    assert.equal(curve.add(null, null), null);
    assert.equal(curve.double(null), null);
    assert.equal(curve.neg(null), null);
    assert.equal(curve.add(P, curve.neg(P)), null);
    assert.equal(curve.add(curve.neg(P), P), null);
    assert.equal(curve.sub(P, P), null);
    assertPointEq(curve.add(P, P), toNoble(P).double(), 'P + P');
    assertPointEq(curve.add(P, { x: P.x, y: P.y }), toNoble(P).double(), 'P + copy(P)');
    assert.ok(curve.eq(curve.add(P, P), curve.double(P)), 'curve.eq(curve.add(P, P), curve.double(P))');
    assert.ok(curve.eq(null, null), 'curve.eq(null, null)');
    assert.ok(!curve.eq(P, null) && !curve.eq(null, P), '!curve.eq(P, null) && !curve.eq(null, P)');
    assert.ok(curve.eq(P, { x: P.x + p, y: P.y - p }), 'eq compares field elements');
    // A point with y = 0 would have order 2; y² = x³ + 4 has one iff -4 is a cube, so use a
    // synthetic point to exercise the branch.
    assert.equal(curve.double({ x: 5n, y: 0n }), null);
  });

  it('mul / mulScalar on random scalars', () => {
    for (let i = 0; i < 25; i++) {
      const P = i < 5 ? NP.BASE : randomNoble();
      const k = rng.nextBelow(r);
      assertPointEq(curve.mul(fromNoble(P), k), nobleMul(P, k), `mul #${i}`);
    }
    // Short scalars (sizes where window / carry bugs usually hide).
    for (let i = 0; i < 40; i++) {
      const k = rng.nextBigint(1 + i * 3);
      assertPointEq(curve.mul(curve.G, k), nobleMul(NP.BASE, k), `short mul #${i} k=${k}`);
    }
  });

  it('mul hard scalars: 0, 1, 2, r-1, r, r+1, negative, unreduced', () => {
    const Pn = randomNoble();
    const P = fromNoble(Pn)!;
    assert.equal(curve.mul(P, 0n), null);
    assert.equal(curve.mul(null, 12345n), null);
    assert.deepEqual(curve.mul(P, 1n), P);
    assertPointEq(curve.mul(P, 2n), Pn.double(), '2P');
    assertPointEq(curve.mul(P, r - 1n), Pn.negate(), '(r-1)P');
    assert.equal(curve.mul(P, r), null);
    assert.deepEqual(curve.mul(P, r + 1n), P);
    assertPointEq(curve.mul(P, -1n), Pn.negate(), '(-1)P');
    const k = rng.nextBelow(r);
    assert.deepEqual(curve.mul(P, -k), curve.neg(curve.mul(P, k)));
    assert.deepEqual(curve.mulScalar(P, k + 5n * r), curve.mulScalar(P, k));
    assert.deepEqual(curve.mulScalar(P, k - r), curve.mulScalar(P, k));
    assertPointEq(curve.mulScalar(P, -k), nobleMul(Pn, -k), 'mulScalar(-k)');
  });

  it('points outside the subgroup: exact-integer mul, isInSubgroup, cofactor', () => {
    for (let skip = 0; skip < 3; skip++) {
      const Q = firstCurvePointOutsideSubgroup(skip);
      const Qn = NP.fromAffine(Q);
      assert.ok(curve.isOnCurve(Q), 'curve.isOnCurve(Q)');
      assert.equal(Qn.isTorsionFree(), false);
      assert.equal(curve.isInSubgroup(Q), false);
      // r·Q != O, but the exact integer multiple by h1·r kills it.
      assert.notEqual(curve.mul(Q, r), null);
      assert.equal(curve.mul(Q, bls12_381.h1 * r), null);
      // Generic scalar mul (noble's multiplyUnsafe is plain wNAF, valid off-subgroup).
      const k = rng.nextBelow(r);
      assertPointEq(curve.mul(Q, k), Qn.multiplyUnsafe(k), `off-subgroup mul, skip ${skip}`);
      // mul by an integer > r is not reduced mod r off the subgroup, but mulScalar reduces first.
      assert.ok(!curve.eq(curve.mul(Q, r + 1n), Q), '!curve.eq(curve.mul(Q, r + 1n), Q)');
      assert.deepEqual(curve.mulScalar(Q, r + 1n), Q);
      assertPointEq(curve.mulScalar(Q, k + r), Qn.multiplyUnsafe(k), `mulScalar(k + r) off-subgroup, skip ${skip}`);
      // Cofactor clearing: noble uses h_eff = 1 - z.
      const cleared = curve.mul(Q, 1n - Z);
      assertPointEq(cleared, Qn.clearCofactor(), `clearCofactor, skip ${skip}`);
      assert.ok(curve.isInSubgroup(cleared), 'curve.isInSubgroup(cleared)');
    }
  });

  it('endo: (beta·x, y) and endo(endo(endo(P))) = P', () => {
    assert.equal(curve.endo(null), null);
    for (let i = 0; i < 10; i++) {
      const Pn = randomNoble();
      const P = fromNoble(Pn);
      const E = curve.endo(P);
      assert.ok(curve.isOnCurve(E), 'curve.isOnCurve(E)');
      assertPointEq(E, Pn.multiply(bls12_381.lambda), `endo #${i}`);
      assert.deepEqual(curve.endo(curve.endo(E)), P);
    }
  });

  it('msmNaive vs sum of noble scalar muls', () => {
    assert.equal(curve.msmNaive([], []), null);
    assert.throws(() => curve.msmNaive([curve.G], []), RangeError);
    const cases: { pts: NoblePoint[]; sc: bigint[] }[] = [];
    // Single term.
    cases.push({ pts: [randomNoble()], sc: [rng.nextBelow(r)] });
    // Random batch with edge scalars and unreduced / negative scalars.
    {
      const pts = Array.from({ length: 10 }, () => randomNoble());
      const sc = [0n, 1n, r - 1n, r, r + 7n, -3n, ...Array.from({ length: 4 }, () => rng.nextBigint(300))];
      cases.push({ pts, sc });
    }
    // Repeated points, P and -P, the point at infinity; total may cancel.
    {
      const A = randomNoble();
      const B = randomNoble();
      cases.push({ pts: [A, A, B, B.negate(), NP.ZERO, A], sc: [5n, 7n, 11n, 11n, 99n, r - 12n] });
      cases.push({ pts: [A, B, A], sc: [3n, 4n, 9n] });
    }
    for (const [ci, { pts, sc }] of cases.entries()) {
      let expect = NP.ZERO;
      for (let i = 0; i < pts.length; i++) expect = expect.add(nobleMul(pts[i]!, sc[i]!));
      const got = curve.msmNaive(pts.map(fromNoble), sc);
      assertPointEq(got, expect, `msm case ${ci}`);
    }
    assert.equal(curve.msmNaive(cases[2]!.pts.map(fromNoble), cases[2]!.sc), null, 'cancelling MSM is O');
  });
});

// ---------------------------------------------------------------------------------------------
describe('GLV decomposition', () => {
  const { lambda } = bls12_381;
  const [v1, v2] = curve.glvBasis;
  const [bound1, bound2] = curve.glvBound;
  const rng = makeRng(4);
  const LIMIT = 1n << 128n; // Signed 128-bit is what the kernels will rely on for BLS12-381.

  const checkSplit = (s: bigint): void => {
    const { k1, k2 } = curve.glvSplit(s);
    assert.equal((((k1 + k2 * lambda - s) % r) + r) % r, 0n, `congruence for s = ${s}`);
    assert.ok(abs(k1) <= bound1 && abs(k2) <= bound2, `bound for s = ${s}: k1 = ${k1}, k2 = ${k2}`);
    assert.ok(abs(k1) < LIMIT && abs(k2) < LIMIT, `2^128 bound for s = ${s}`);
  };

  it('basis is a short basis of the lattice {(a, b): a + b·lambda ≡ 0 mod r}', () => {
    for (const v of [v1, v2]) {
      assert.equal((v.a + v.b * lambda) % r, 0n);
      assert.ok(abs(v.a) < LIMIT && abs(v.b) < LIMIT, 'abs(v.a) < LIMIT && abs(v.b) < LIMIT');
    }
    assert.equal(abs(v1.a * v2.b - v1.b * v2.a), r, 'determinant ±r (so it generates the whole lattice)');
    // For BLS12-381 the reduced basis is {(1, z²), (z² - 1, -1)} up to order and sign.
    const norms = [v1, v2].map((v) => [abs(v.a), abs(v.b)].sort((x, y) => (x < y ? -1 : 1)));
    assert.deepEqual(
      norms.sort((x, y) => (x[1]! < y[1]! ? -1 : 1)),
      [
        [1n, Z * Z - 1n],
        [1n, Z * Z],
      ],
    );
    assert.ok(bound1 < 1n << 127n && bound2 < 1n << 127n, 'bound1 < 1n << 127n && bound2 < 1n << 127n');
  });

  it('glvBasis is generic: the other cube root of unity also gets a short basis', () => {
    const other = (lambda * lambda) % r;
    const [w1, w2] = glvBasis(r, other);
    for (const w of [w1, w2]) {
      assert.equal((w.a + w.b * other) % r, 0n);
      assert.ok(abs(w.a) < LIMIT && abs(w.b) < LIMIT, 'abs(w.a) < LIMIT && abs(w.b) < LIMIT');
    }
    assert.equal(abs(w1.a * w2.b - w1.b * w2.a), r);
    const c2 = new RefCurve({ ...bls12_381, lambda: other, beta: curve.Fp.sqr(bls12_381.beta) });
    for (let i = 0; i < 300; i++) {
      const s = rng.nextBelow(r);
      const { k1, k2 } = c2.glvSplit(s);
      assert.equal((((k1 + k2 * other - s) % r) + r) % r, 0n);
      assert.ok(abs(k1) <= c2.glvBound[0] && abs(k2) <= c2.glvBound[1], 'abs(k1) <= c2.glvBound[0] && abs(k2) <= c2.glvBound[1]');
    }
  });

  it('glvBasis on every cube root of unity mod small primes: valid and short', () => {
    let cases = 0;
    for (let n = 7n; n < 3000n; n += 6n) {
      if (!isSmallPrime(Number(n))) continue; // n ≡ 1 (mod 6)
      for (let l = 2n; l < n; l++) {
        if ((l * l + l + 1n) % n !== 0n) continue;
        const [w1, w2] = glvBasis(n, l);
        for (const w of [w1, w2]) assert.equal((((w.a + w.b * l) % n) + n) % n, 0n, `lattice n=${n} l=${l}`);
        assert.equal(abs(w1.a * w2.b - w1.b * w2.a), n, `det n=${n} l=${l}`);
        // The Eisenstein-type lattice has both minima ≈ sqrt(n); a reduced basis stays within 2n.
        for (const w of [w1, w2]) assert.ok(w.a * w.a + w.b * w.b <= 2n * n, `short n=${n} l=${l}: (${w.a}, ${w.b})`);
        cases++;
      }
    }
    assert.ok(cases > 200, 'cases > 200');
  });

  it('random scalars and edge values', () => {
    for (const s of [0n, 1n, 2n, r - 1n, r - 2n, r, r + 1n, -1n, lambda, lambda - 1n, lambda + 1n, r - lambda, (r - 1n) / 2n, (r + 1n) / 2n]) {
      checkSplit(s);
    }
    assert.deepEqual(curve.glvSplit(0n), { k1: 0n, k2: 0n });
    assert.deepEqual(curve.glvSplit(1n), { k1: 1n, k2: 0n });
    for (let i = 0; i < 3000; i++) checkSplit(rng.nextBelow(r));
    for (let i = 0; i < 200; i++) checkSplit(rng.nextBigint(512) - (1n << 511n));
  });

  it('scalars near multiples of the basis vectors and near rounding boundaries', () => {
    const det = v1.a * v2.b - v1.b * v2.a;
    const comps = [v1.a, v1.b, v2.a, v2.b].map(abs).filter((c) => c > 1n);
    for (const c of comps) {
      for (let m = 0n; m < 40n; m++) {
        const mult = m === 0n ? 0n : (m * 0x1234567n * c) % r;
        for (let d = -3n; d <= 3n; d++) checkSplit(mult + d);
        for (let d = -3n; d <= 3n; d++) checkSplit(m * c + d);
      }
    }
    // Rounding boundaries of c1 = round(s·b2/det) and c2 = round(-s·b1/det): s ≈ (m + 1/2)·|det|/|b|.
    for (const bcoef of [v1.b, v2.b].map(abs)) {
      for (let i = 0; i < 60; i++) {
        const m = rng.nextBelow(bcoef);
        const s0 = ((2n * m + 1n) * abs(det)) / (2n * bcoef);
        for (let d = -2n; d <= 2n; d++) checkSplit(s0 + d);
      }
    }
    // Combinations of lattice vectors land on 0 mod r; neighbours must split tightly.
    for (let i = 0; i < 100; i++) {
      const u = rng.nextBigint(8) - 128n;
      const w = rng.nextBigint(8) - 128n;
      const base = u * v1.a + w * v2.a; // ≡ -(u·v1.b + w·v2.b)·lambda
      for (let d = -2n; d <= 2n; d++) checkSplit(base + d);
    }
  });

  it('k1·P + k2·endo(P) = s·P (noble scalar mul)', () => {
    const nobleSigned = (P: NoblePoint, k: bigint): NoblePoint => (k < 0n ? P.multiplyUnsafe(-k).negate() : P.multiplyUnsafe(k));
    for (let i = 0; i < 20; i++) {
      const Pn = i === 0 ? NP.BASE : NP.BASE.multiply(1n + rng.nextBelow(r - 1n));
      const s = i === 1 ? r - 1n : rng.nextBelow(r);
      const { k1, k2 } = curve.glvSplit(s);
      const En = toNoble(curve.endo(fromNoble(Pn)));
      const combo = nobleSigned(Pn, k1).add(nobleSigned(En, k2));
      assert.ok(combo.equals(nobleMul(Pn, s)), `GLV recombination #${i}`);
    }
  });
});
