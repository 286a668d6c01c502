/**
 * The pairing (every registry curve whose descriptor sets pairingKernels: BLS12-381, BN254): the bigint reference (src/reference/pairing.ts) against @noble/curves and
 * against definitions (the exponent identity, f^(3(p¹² − 1)/r) by plain powering, affine point
 * arithmetic for the line steps); the kernels (src/codegen/pairing.ts) against the reference on both
 * backends (i32, and wide64 on its polyfilled binary in Node), inputs in the redundant range; and the
 * runtime (src/msm/pairing.ts) on both: bilinearity, non-degeneracy, e(P, Q)·e(−P, Q) = 1, the
 * identity cases, multi-pairing = product of single pairings, prepared = unprepared, equal to noble.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn } from '@noble/curves/bn254.js';
import { curveNames, registry } from '../src/curves/index.js';
import type { CurveDescriptor } from '../src/curves/types.js';
import { RefPairing, type Fp12 } from '../src/reference/pairing.js';
import { RefG2, type G2Affine } from '../src/reference/g2.js';
import { RefCurve } from '../src/reference/curve.js';
import { makeRng } from '../src/reference/rng.js';
import { type Fp2 } from '../src/reference/fp2.js';
import { devCurveModule } from '../src/testing/dev-instance.js';
import { generateCurveModule } from '../src/codegen/module.js';
import { groupContext, type G1AffineValue } from '../src/msm/group.js';
import { Pairing } from '../src/msm/pairing.js';
import { millerSchedule } from '../src/curves/g2.js';

type NobleFp2 = { c0: bigint; c1: bigint };
type NobleFp6 = { c0: NobleFp2; c1: NobleFp2; c2: NobleFp2 };
const toNoble = (a: Fp12) => {
  const six = (h: number): NobleFp6 => ({ c0: { c0: a[h]![0]![0], c1: a[h]![0]![1] }, c1: { c0: a[h]![1]![0], c1: a[h]![1]![1] }, c2: { c0: a[h]![2]![0], c1: a[h]![2]![1] } });
  return { c0: six(0), c1: six(1) };
};
const fromNoble = (n: { c0: NobleFp6; c1: NobleFp6 }): Fp12 => [n.c0, n.c1].map((s) => [s.c0, s.c1, s.c2].map((x) => [x.c0, x.c1] as Fp2)) as unknown as Fp12;

const PAIRING_CURVES = curveNames.filter((n) => (registry[n] as CurveDescriptor).pairingKernels === true);

/** Both backends' modules: the i32 dev build and the wide64 one (polyfilled wide arithmetic, runs in Node). */
const BACKENDS = [
  { name: 'i32', fp: undefined },
  { name: 'wide64 (polyfill)', fp: { w: 64 } as const },
];

for (const name of PAIRING_CURVES) {
  const curve: CurveDescriptor = registry[name];
  const g2p = curve.g2!;
  const params = g2p.pairing!;
  const R = new RefPairing(g2p, params);
  const G1 = new RefCurve(curve.params);
  const G2 = new RefG2(g2p);
  const { p, r } = curve.params;
  const rng = makeRng(34);
  const scalar = () => (rng.nextBigint(300) % (r - 1n)) + 1n;
  const randFp2 = (): Fp2 => [rng.nextBigint(400) % p, rng.nextBigint(400) % p];
  const randFp12 = (): Fp12 => [[randFp2(), randFp2(), randFp2()], [randFp2(), randFp2(), randFp2()]];
  /** an element of the cyclotomic subgroup: the easy part of a random element */
  const cyclotomic = (f: Fp12): Fp12 => {
    const t = R.mul(R.conj(f), R.inv(f));
    return R.mul(R.frobenius(t, 2), t);
  };

  const noble = name === 'bn254' ? nobleBn : nobleBls;
  const nobleG1 = (P: { x: bigint; y: bigint }) => noble.G1.Point.fromAffine(P);
  const nobleG2 = (Q: G2Affine) => noble.G2.Point.fromAffine({ x: { c0: Q.x[0], c1: Q.x[1] }, y: { c0: Q.y[0], c1: Q.y[1] } });

  describe(`reference pairing (${name}) against @noble/curves and the definitions`, () => {
    const F12 = noble.fields.Fp12;
    it('the tower: mul, sqr, inv, Frobenius 1…3 equal noble; cyclotomic squaring = squaring on the cyclotomic subgroup, not elsewhere', () => {
      for (let t = 0; t < 4; t++) {
        const a = randFp12(), b = randFp12();
        assert.ok(R.eq(R.mul(a, b), fromNoble(F12.mul(toNoble(a), toNoble(b)))), 'mul');
        assert.ok(R.eq(R.sqr(a), fromNoble(F12.sqr(toNoble(a)))), 'sqr');
        assert.ok(R.eq(R.inv(a), fromNoble(F12.inv(toNoble(a)))), 'inv');
        for (const n of [1, 2, 3] as const) assert.ok(R.eq(R.frobenius(a, n), fromNoble(F12.frobeniusMap(toNoble(a), n))), `frobenius ${n}`);
        const c = cyclotomic(a);
        assert.ok(R.eq(R.cyclotomicSqr(c), R.sqr(c)), 'cyclotomic squaring on the subgroup');
        assert.ok(!R.eq(R.cyclotomicSqr(a), R.sqr(a)), 'cyclotomic squaring off the subgroup');
      }
    });
    it('compressed squarings (Karabina): k of them then decompression = k cyclotomic squarings; no decompression at a10 = 0', () => {
      for (let t = 0; t < 2; t++) {
        let full = cyclotomic(randFp12());
        let comp = full;
        for (let k = 1; k <= 5; k++) {
          full = R.cyclotomicSqr(full);
          comp = R.karabinaSqr(comp);
          assert.ok(R.eq(R.karabinaDecompress(comp)!, full), `${k} compressed squarings`);
        }
      }
      assert.equal(R.karabinaDecompress(R.one12), null);
    });
    it('the line steps move T as affine doubling, addition and subtraction do', () => {
      const Q = G2.mul(G2.G, scalar())!;
      const aff = (T: readonly [Fp2, Fp2, Fp2]) => ({ x: R.F2.mul(T[0], R.F2.inv(T[2])), y: R.F2.mul(T[1], R.F2.inv(T[2])) });
      let T: readonly [Fp2, Fp2, Fp2] = [Q.x, Q.y, R.F2.one];
      let k = 1n;
      for (const s of millerSchedule(params).slice(0, 16)) {
        T = s === 'dbl' ? R.doubleStep(T).T : R.addStep(T, s === 'sub' ? G2.neg(Q)! : Q).T;
        k = s === 'dbl' ? 2n * k : s === 'add' ? k + 1n : k - 1n;
        assert.ok(G2.eq(aff(T), G2.mul(Q, k)), `after ${s}, [${k}]Q`);
      }
    });
    it('the final exponent as integers (multiple m of (p¹² − 1)/r, 3 ∤ r), and finalExp(f) = f^(m(p¹² − 1)/r) by plain powering', () => {
      const u = params.u;
      const d = (p ** 12n - 1n) / r;
      assert.equal((p ** 12n - 1n) % r, 0n);
      const easy = (p ** 6n - 1n) * (p * p + 1n);
      // BLS12: HHT's 3(p⁴ − p² + 1)/r; BN: the λ-decomposition of 2u(6u² + 3u + 1)(p⁴ − p² + 1)/r (FKR 2011)
      const m = params.family === 'bn' ? 2n * u * (6n * u * u + 3n * u + 1n) : 3n;
      const hard = params.family === 'bn'
        ? [12n * u ** 3n + 12n * u * u + 6n * u + 1n, 12n * u ** 3n + 6n * u * u + 4n * u, 12n * u ** 3n + 6n * u * u + 6n * u, 12n * u ** 3n + 6n * u * u + 4n * u - 1n].reduce((acc, l, i) => acc + l * p ** BigInt(i), 0n)
        : (u - 1n) ** 2n * (u + p) * (u * u + p * p - 1n) + 3n;
      assert.equal(m * d, easy * hard);
      assert.notEqual(m % r, 0n);
      const f = randFp12();
      assert.ok(R.eq(R.finalExp(f), R.pow(f, m * d)), 'finalExp = plain power');
    });
    it('e(P, Q) equals noble on random points, the generators, and with an infinity', () => {
      const cases: [{ x: bigint; y: bigint }, G2Affine][] = [[curve.params.G1, G2.G]];
      for (let t = 0; t < 2; t++) cases.push([G1.mul(curve.params.G1, scalar())!, G2.mul(G2.G, scalar())!]);
      for (const [P, Q] of cases) assert.ok(R.eq(R.pairing(P, Q), fromNoble(noble.pairing(nobleG1(P), nobleG2(Q)))), 'e(P, Q) = noble');
      assert.ok(R.eq(R.pairing(null, G2.G), R.one12), 'e(O, Q)');
      assert.ok(R.eq(R.pairing(curve.params.G1, null), R.one12), 'e(P, O)');
    });
  });

  for (const backend of BACKENDS) {
    describe(`pairing kernels (${name}, ${backend.name}) against the reference`, async () => {
      const spec = { curve, ...(backend.fp ? { fp: backend.fp } : {}) };
      const inst = await devCurveModule(spec);
      const kernelScratch = Object.fromEntries(generateCurveModule(spec).abi.filter((k) => typeof k.scratch === 'number').map((k) => [k.name, k.scratch as number]));
      const k = inst.k as unknown as Record<string, (...a: number[]) => number>;
      const F = inst.fields.fp;
      const EB = F.info.elementBytes;
      const scratch = F.alloc(Math.ceil(Math.max(...Object.values(kernelScratch)) / EB));
      const [A, B, O, L] = [F.alloc(12), F.alloc(12), F.alloc(12), F.alloc(6)];
      /** components written as raw representatives in [0, 2p): + p on every other one that is below p */
      const put = (ptr: number, a: Fp12) => a.flat(2).forEach((v, j) => {
        F.write(ptr + j * EB, v);
        if (j % 2 === 1 && F.readLimbs(ptr + j * EB) < p) F.writeLimbs(ptr + j * EB, F.readLimbs(ptr + j * EB) + p);
      });
      const get = (ptr: number): Fp12 => [0, 1].map((h) => [0, 1, 2].map((j) => [F.read(ptr + (6 * h + 2 * j) * EB), F.read(ptr + (6 * h + 2 * j + 1) * EB)])) as unknown as Fp12;
      const inRange = (ptr: number) => Array.from({ length: 12 }, (_, j) => F.readLimbs(ptr + j * EB)).every((v) => v < 2n * p);

      it('fp12 mul, sqr, mul_line, conj, frobenius 1…3, inv, cyclotomic_sqr, is_one; outputs in [0, 2p), out aliasing an input', () => {
        for (let t = 0; t < 4; t++) {
          const a = t === 0 ? R.one12 : randFp12(), b = randFp12(), c = cyclotomic(randFp12());
          const line: [Fp2, Fp2, Fp2] = [randFp2(), randFp2(), randFp2()];
          const check = (name: string, run: () => void, want: Fp12, x: Fp12 = a) => {
            put(A, x);
            put(B, b);
            run();
            assert.ok(R.eq(get(O), want), `${name} (case ${t})`);
            assert.ok(inRange(O), `${name}: output in [0, 2p)`);
          };
          check('mul', () => k.fp12_mul(O, A, B, scratch), R.mul(a, b));
          check('mul (out = x)', () => (k.fp12_mul(A, A, B, scratch), k.fp12_conj(O, A, scratch), k.fp12_conj(O, O, scratch)), R.mul(a, b));
          check('sqr', () => k.fp12_sqr(O, A, scratch), R.sqr(a));
          check('sqr (out = x)', () => (k.fp12_sqr(A, A, scratch), k.fp12_conj(O, A, scratch), k.fp12_conj(O, O, scratch)), R.sqr(a));
          check('mul_line', () => {
            line.forEach((v, j) => v.forEach((c0, i) => F.write(L + (2 * j + i) * EB, c0)));
            k.fp12_mul_line(O, A, L, scratch);
          }, R.mulLine(a, ...line));
          check('conj', () => k.fp12_conj(O, A, scratch), R.conj(a));
          for (const n of [1, 2, 3] as const) check(`frobenius ${n}`, () => k.fp12_frobenius(O, A, n, scratch), R.frobenius(a, n));
          check('inv', () => k.fp12_inv(O, A, scratch), R.inv(a));
          check('cyclotomic_sqr', () => k.fp12_cyclotomic_sqr(O, A, scratch), R.cyclotomicSqr(c), c);
          put(A, a);
          assert.equal(k.fp12_is_one(A, scratch), t === 0 ? 1 : 0);
        }
        k.fp12_set_one(O, scratch);
        assert.ok(R.eq(get(O), R.one12), 'set_one');
      });

      it('prepared lines, the two-pair Miller loop and the final exponentiation equal the reference', () => {
        const pairs = [0, 1].map(() => ({ P: G1.mul(curve.params.G1, scalar())!, Q: G2.mul(G2.G, scalar())! }));
        const lines = millerSchedule(params).length;
        const tables = pairs.map(() => F.alloc(6 * lines));
        const ps = F.alloc(4), ptrs = F.alloc(1), q = F.alloc(4);
        pairs.forEach(({ P, Q }, i) => {
          [Q.x[0], Q.x[1], Q.y[0], Q.y[1]].forEach((v, j) => F.write(q + j * EB, v));
          k.pairing_prepare_g2(tables[i]!, q, scratch);
          const want = R.prepare(Q);
          want.forEach((l, s) => l.forEach((v, j) => v.forEach((c0, h) => assert.equal(F.read(tables[i]! + (6 * s + 2 * j + h) * EB), c0, `line ${s}`))));
          F.write(ps + 2 * i * EB, P.x);
          F.write(ps + (2 * i + 1) * EB, P.y);
          new DataView(inst.memory.buffer).setUint32(ptrs + 4 * i, tables[i]!, true);
        });
        k.pairing_miller_loop(O, ps, ptrs, 2, scratch);
        const ml = R.millerLoop(pairs.map(({ P, Q }) => ({ P, lines: R.prepare(Q) })));
        assert.ok(R.eq(get(O), ml), 'Miller loop');
        // the second table normalized (its pointer + 1): its P is taken as (x/y, 1/y), its lines multiplied in by 10M2
        k.pairing_normalize_lines(tables[1]!, scratch);
        const normalized = R.normalizeLines(R.prepare(pairs[1]!.Q));
        normalized.forEach((l, s) => l.forEach((v, j) => v.forEach((c0, h) => assert.equal(F.read(tables[1]! + (6 * s + 2 * j + h) * EB), c0, `normalized line ${s}`))));
        new DataView(inst.memory.buffer).setUint32(ptrs + 4, tables[1]! + 1, true);
        k.pairing_miller_loop(O, ps, ptrs, 2, scratch);
        const mixed = R.millerLoop([{ P: pairs[0]!.P, lines: R.prepare(pairs[0]!.Q) }, { P: pairs[1]!.P, lines: normalized, normalized: true }]);
        assert.ok(R.eq(get(O), mixed), 'Miller loop, one table normalized');
        assert.equal(F.read(ps + 2 * EB), R.F2.Fp.mul(pairs[1]!.P.x, R.F2.Fp.inv(pairs[1]!.P.y)), 'P of a normalized table → x/y');
        assert.ok(R.eq(R.finalExp(mixed), R.finalExp(ml)), 'normalizing changes the loop value by a factor the final exponentiation removes');
        k.pairing_final_exp(O, O, scratch);
        assert.ok(R.eq(get(O), R.finalExp(ml)), 'final exponentiation');
        k.pairing_miller_loop(O, ps, ptrs, 0, scratch);
        assert.equal(k.fp12_is_one(O, scratch), 1);
      });

      it('the final exponentiation where compressed squarings cannot decompress (1, F_p⁶ elements: the easy part gives 1) and on random elements', () => {
        const half = randFp12()[0];
        const zero6: Fp12[0] = [R.F2.zero, R.F2.zero, R.F2.zero];
        for (const f of [R.one12, [half, zero6] as Fp12, randFp12(), randFp12()]) {
          put(A, f);
          k.pairing_final_exp(O, A, scratch);
          assert.ok(R.eq(get(O), R.finalExp(f)), 'final exponentiation');
          assert.ok(inRange(O), 'output in [0, 2p)');
        }
      });
    });

    describe(`msm/pairing (${name}) on the ${backend.name} module`, async () => {
      const spec = { curve, ...(backend.fp ? { fp: backend.fp } : {}) };
      const inst = await devCurveModule(spec);
      const scratchBytes = Object.fromEntries(generateCurveModule(spec).abi.filter((k) => typeof k.scratch === 'number').map((k) => [k.name, k.scratch as number]));
      const ctx = groupContext('g1', { inst: inst as never, scratchBytes, windowTable: [], cofactor: curve.params.h1 }) as unknown as import('../src/msm/group.js').GroupContext<G1AffineValue>;
      const pr = new Pairing(ctx, params);
      const P = G1.mul(curve.params.G1, scalar())!, Q = G2.mul(G2.G, scalar())!;
      const negP = { x: P.x, y: (p - P.y) % p };
      const e = pr.pairing(P, Q);

      it('e(P, Q) = noble; prepared = unprepared; non-degenerate', () => {
        assert.ok(R.eq(e, fromNoble(noble.pairing(nobleG1(P), nobleG2(Q)))), 'e(P, Q) = noble');
        assert.ok(R.eq(pr.pairing(P, pr.prepareG2(Q)), e), 'prepared = unprepared');
        assert.ok(!R.eq(pr.pairing(curve.params.G1, G2.G), R.one12), 'e(G1, G2) ≠ 1');
      });
      it('bilinearity: e(aP, bQ) = e(P, Q)^(ab)', () => {
        const a = scalar(), b = scalar();
        assert.ok(R.eq(pr.pairing(G1.mul(P, a), G2.mul(Q, b)), R.pow(e, (a * b) % r)), 'e(aP, bQ) = e(P, Q)^(ab)');
      });
      it('pairingCheck: e(P, Q)·e(−P, Q) = 1, e(aP, Q)·e(P, −aQ) = 1 (prepared), not for e(P, Q)²', () => {
        const a = scalar();
        assert.equal(pr.pairingCheck([[P, Q], [negP, Q]]), true);
        assert.equal(pr.pairingCheck([[G1.mul(P, a), Q], [P, pr.prepareG2(G2.neg(G2.mul(Q, a)))]]), true);
        assert.equal(pr.pairingCheck([[P, Q], [P, Q]]), false);
        assert.equal(pr.pairingCheck([[P, Q]]), false);
      });
      it('infinity contributes 1: e(O, Q) = e(P, O) = 1, checks of infinities alone hold, and they drop out of products', () => {
        assert.ok(R.eq(pr.pairing(null, Q), R.one12), 'e(O, Q) = 1');
        assert.ok(R.eq(pr.pairing(P, null), R.one12), 'e(P, O) = 1');
        assert.ok(R.eq(pr.pairing(P, pr.prepareG2(null)), R.one12), 'e(P, prepared O) = 1');
        assert.equal(pr.pairingCheck([]), true);
        assert.equal(pr.pairingCheck([[null, Q], [P, null]]), true);
        assert.equal(pr.pairingCheck([[P, Q], [null, Q], [negP, pr.prepareG2(Q)]]), true);
      });
      it('multi-pairing: finalExp(millerLoop(pairs)) = ∏ e(P_i, Q_i), three pairs', () => {
        const pairs = [0, 1, 2].map(() => [G1.mul(curve.params.G1, scalar())!, G2.mul(G2.G, scalar())!] as const);
        const product = pairs.map(([a, b]) => pr.pairing(a, b)).reduce((x, y) => R.mul(x, y));
        assert.ok(R.eq(pr.finalExp(pr.millerLoop(pairs)), product), 'multi-pairing = product');
        assert.ok(R.eq(product, R.pairingProduct(pairs)), 'product = reference');
      });
      it('refuses coordinates ≥ p and tables of another instance, leaving the arena where it was', () => {
        const mark = inst.arena.mark();
        assert.throws(() => pr.pairing({ x: P.x + p, y: P.y }, Q), RangeError);
        const other = new Pairing(ctx, params);
        assert.throws(() => other.pairingCheck([[P, pr.prepareG2(Q)]]), /another instance/);
        assert.equal(inst.arena.mark(), mark);
      });
    });
  }
}
