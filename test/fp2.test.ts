/**
 * F_p² kernels (src/codegen/fp2.ts) against the bigint reference (src/reference/fp2.ts), and the
 * reference against @noble/curves' Fp2 (where noble has the curve), for every registry curve with a
 * G2 at its shipped limb width and at the other end of the range. Inputs include raw redundant components (p, 2p − 1), 0, 1, p − 1, i.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { devFp2Instance } from '../src/testing/dev-g2.js';
import { RefFp2, type Fp2 } from '../src/reference/fp2.js';
import { g2CurveNames, nobleOf, registry } from './helpers/registry.js';
import { makeRng } from '../src/reference/rng.js';


/** Component values in the kernels' redundant range [0, 2p): canonical hard ones, then raw ones ≡ them. */
function hardComponents(p: bigint): bigint[] {
  return [0n, 1n, 2n, p - 1n, (p - 1n) / 2n, (p + 1n) / 2n, p, p + 1n, 2n * p - 1n];
}

// F_p² is G2's coordinate field: every curve of the registry with a G2
for (const name of g2CurveNames) {
  const { p } = registry[name].params;
  const tuning = registry[name].tuning.fp;
  const ref = new RefFp2(p);
  const noble = nobleOf(name)?.Fp2;
  if (noble) describe(`Fp2 reference (${name}) against @noble/curves`, () => {
    it('mul, sqr, inv, sqrt agree', () => {
      const rng = makeRng(7);
      for (let t = 0; t < 30; t++) {
        const a: Fp2 = [rng.nextBigint(400) % p, rng.nextBigint(400) % p];
        const b: Fp2 = [rng.nextBigint(400) % p, rng.nextBigint(400) % p];
        const na = { c0: a[0], c1: a[1] }, nb = { c0: b[0], c1: b[1] };
        const asPair = (x: { c0: bigint; c1: bigint }): Fp2 => [x.c0, x.c1];
        assert.deepEqual(ref.mul(a, b), asPair(noble.mul(na, nb)));
        assert.deepEqual(ref.sqr(a), asPair(noble.sqr(na)));
        assert.deepEqual(ref.inv(a), asPair(noble.inv(na)));
        const sq = ref.sqr(a);
        const root = ref.sqrt(sq)!;
        assert.ok(ref.eq(root, a) || ref.eq(root, ref.neg(a)));
        const euler = noble.pow(na, (p * p - 1n) / 2n);
        assert.equal(ref.sqrt(a) === undefined, !noble.eql(euler, noble.ONE));
      }
    });
  });

  for (const field of [tuning, { w: tuning.w === 26 ? 30 : 26, mul: 'karatsuba' as const }]) {
    describe(`fp2 kernels (${name}, w = ${field.w}, fp ${field.mul})`, async () => {
      const { inst } = await devFp2Instance(name, p, field);
      const { k } = inst;
      const F = inst.fields.fp;
      const EB = F.info.elementBytes;
      const [A, B, O, S] = [F.alloc(2), F.alloc(2), F.alloc(2), F.alloc(2 * 8)];
      /** writes component c as a raw representative: Montgomery form of c mod p, plus p when c ≥ p (still < 2p) */
      const put = (ptr: number, v: readonly [bigint, bigint]) => {
        v.forEach((c, j) => {
          F.write(ptr + j * EB, c % p); // canonical Montgomery form, < p
          if (c >= p) F.writeLimbs(ptr + j * EB, F.readLimbs(ptr + j * EB) + p);
        });
      };
      const inRange = (ptr: number) => [0, 1].every((j) => F.readLimbs(ptr + j * EB) < 2n * p);
      const get = (ptr: number): Fp2 => [F.read(ptr), F.read(ptr + EB)];
      const canon = (v: readonly [bigint, bigint]): Fp2 => [v[0] % p, v[1] % p];
      const rng = makeRng(11);
      const comps = hardComponents(p);
      const values: (readonly [bigint, bigint])[] = [];
      for (const c0 of comps) for (const c1 of [0n, 1n, p - 1n, 2n * p - 1n]) values.push([c0, c1]);
      while (values.length < 60) values.push([rng.nextBigint(400) % (2n * p), rng.nextBigint(400) % (2n * p)]);

      it('mul, sqr, add, sub, neg, double, conj, mul_fp against the reference (outputs in [0, 2p))', () => {
        for (let t = 0; t < values.length; t++) {
          const a = values[t], b = values[(t * 7 + 3) % values.length];
          const ra = canon(a), rb = canon(b);
          const cases: [string, () => void, Fp2][] = [
            ['mul', () => k.fp2_mul(O, A, B), ref.mul(ra, rb)],
            ['sqr', () => k.fp2_sqr(O, A), ref.sqr(ra)],
            ['add', () => k.fp2_add(O, A, B), ref.add(ra, rb)],
            ['sub', () => k.fp2_sub(O, A, B), ref.sub(ra, rb)],
            ['neg', () => k.fp2_neg(O, A), ref.neg(ra)],
            ['double', () => k.fp2_double(O, A), ref.add(ra, ra)],
            ['conj', () => k.fp2_conj(O, A), ref.conj(ra)],
            ['mul_fp', () => k.fp2_mul_fp(O, A, B), ref.mulFp(ra, rb[0])],
          ];
          for (const [op, run, want] of cases) {
            put(A, a);
            put(B, b);
            run();
            assert.ok(inRange(O), `${op} out of range`);
            assert.deepEqual(get(O), want, `${op}(${a}, ${b})`);
          }
          // aliasing: out = x
          put(A, a);
          put(B, b);
          k.fp2_mul(A, A, B);
          assert.deepEqual(get(A), ref.mul(ra, rb), 'mul aliased');
          put(A, a);
          k.fp2_sqr(A, A);
          assert.deepEqual(get(A), ref.sqr(ra), 'sqr aliased');
        }
      });

      it('eq, is_zero, is_one on raw representatives', () => {
        for (const a of values) {
          put(A, a);
          put(B, canon(a));
          assert.equal(k.fp2_eq(A, B), 1);
          assert.equal(k.fp2_is_zero(A), ref.isZero(canon(a)) ? 1 : 0);
          assert.equal(k.fp2_is_one(A), ref.eq(canon(a), ref.one) ? 1 : 0);
        }
        put(A, [1n, 0n]);
        put(B, [0n, 1n]);
        assert.equal(k.fp2_eq(A, B), 0);
      });

      it('inv (inv(0) = 0) and reduce', () => {
        for (const a of values) {
          put(A, a);
          k.fp2_inv(O, A);
          assert.ok(inRange(O));
          assert.deepEqual(get(O), ref.inv(canon(a)));
          k.fp2_inv(A, A);
          assert.deepEqual(get(A), ref.inv(canon(a)), 'aliased');
          put(A, a);
          k.fp2_reduce(O, A);
          assert.ok([0, 1].every((j) => F.readLimbs(O + j * EB) < p));
        }
      });

      it('sqrt: squares (incl. i, −1, 0, pure imaginary and pure real) give a root, non-squares 0', () => {
        let nonSquares = 0;
        const extra: Fp2[] = [[0n, 1n], [p - 1n, 0n], [0n, 0n], [2n, 0n], [0n, 2n], [5n, 0n]];
        for (const a of [...values.map(canon), ...extra]) {
          for (const x of [ref.sqr(a), a]) {
            put(A, x);
            const ok = k.fp2_sqrt(O, A, S);
            const want = ref.sqrt(x);
            assert.equal(ok, want === undefined ? 0 : 1, `sqrt status of ${x}`);
            if (want === undefined) {
              nonSquares++;
              continue;
            }
            assert.deepEqual(ref.sqr(get(O)), x);
            assert.deepEqual(get(O), want, 'the reference root');
            k.fp2_sqrt(A, A, S);
            assert.deepEqual(get(A), want, 'aliased');
          }
        }
        assert.ok(nonSquares > 5);
      });
    });
  }
}
