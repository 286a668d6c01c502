/**
 * The G1 subgroup kernels of CurveGen (./curve.ts): `<g>_is_in_subgroup` (one point, in XYZZ) and
 * `<g>_subgroup_check_batch` (many points in affine, one inversion per chain step), both the
 * endomorphism test [t]([t]P) = ψ(P) + P with t² − 1 = lambda (Scott, eprint 2021/1130, in this
 * form), and the derivation of t with the conditions under which the test is exact.
 */
import { isqrt } from '../reference/arith.js';
import { RefCurve } from '../reference/curve.js';
import type { CurveParams } from '../curves/types.js';
import { PointError, STATUS_SHIFT } from '../abi/codes.js';
import { SUBGROUP_BATCH_FIXED_ELEMENTS, subgroupBatchScratchBytes } from '../abi/layout.js';
import { countedScratch } from './scratch.js';
import { FuncBuilder, I32, i32, i64, emitDoubleAndAdd } from './wat.js';
import { XYZZ_SCRATCH } from './curve-xyzz.js';
import type { CurveGen } from './curve.js';

const gcd = (a: bigint, b: bigint): bigint => {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
};

/**
 * |t| of the subgroup test [t]([t]P) = ψ(P) + P for the curve (`t`: given, else the integer square
 * root of lambda + 1, exact for BLS12 curves where t = ±z), or undefined when the cofactor is 1
 * (every point of E(F_p) is then in G1). Throws unless the test is exact for this curve.
 */
export function subgroupTestT(params: CurveParams, t: bigint | undefined): bigint | undefined {
  const { p, r, lambda } = params;
  if (params.h1 === 1n) {
    // E(F_p) has prime order r: every on-curve point is in G1, there is nothing to test
    return undefined;
  }
  // Subgroup test data. ψ(x, y) = (beta·x, y) satisfies ψ² + ψ + 1 = 0 and acts as lambda on G1.
  // With m = t² − 1 (an integer), ψ − [m] is an isogeny of degree m² + m + 1 (the norm of m − ω
  // in Z[ω]); G1 lies in its kernel, and every point of the kernel inside E(F_p) has an order
  // dividing gcd(m² + m + 1, #E(F_p)). If that gcd is r, the kernel ∩ E(F_p) is exactly G1.
  if (t === undefined) {
    t = isqrt(lambda + 1n);
    if (t * t !== lambda + 1n) {
      throw new Error(`CurveGen(${params.name}): lambda + 1 is not a square; pass options.subgroupT`);
    }
  }
  t = t < 0n ? -t : t;
  const m = t * t - 1n;
  if (((m - lambda) % r + r) % r !== 0n) throw new Error(`CurveGen(${params.name}): t² − 1 ≢ lambda (mod r)`);
  const deg = m * m + m + 1n;
  if (deg % p === 0n) throw new Error(`CurveGen(${params.name}): ψ − [t² − 1] is inseparable`);
  // r ∤ h1: the order-r points of E(F_p) are exactly G1 (no second copy of Z/r)
  if (params.h1 % r === 0n) throw new Error(`CurveGen(${params.name}): r divides the cofactor, G1 is not the only order-r subgroup`);
  if (gcd(deg, params.h1 * r) !== r) {
    throw new Error(`CurveGen(${params.name}): gcd(m² + m + 1, #E) ≠ r, the endomorphism test would be unsound`);
  }
  const ref = new RefCurve(params);
  const G = ref.G;
  if (!ref.eq(ref.mul(ref.mul(G, t), t), ref.add(ref.endo(G), G))) {
    throw new Error(`CurveGen(${params.name}): [t]([t]G) ≠ endo(G) + G`);
  }
  return t;
}

/** Scratch elements of `<g>_is_in_subgroup` (0 without a test): A, B, C (XYZZ), E (affine), then the XYZZ ops' scratch. */
export function subgroupScratchElements(t: bigint | undefined): number {
  return t === undefined ? 0 : 14 + Math.max(XYZZ_SCRATCH.add, XYZZ_SCRATCH.addAffine, XYZZ_SCRATCH.double, XYZZ_SCRATCH.eq);
}

/** The subgroup kernels, in module order: is_in_subgroup, then the batch check (+ its internal step and chain). */
export function emitSubgroupKernels(cg: CurveGen): void {
  emitIsInSubgroup(cg);
  emitSubgroupBatch(cg);
}

function emitIsInSubgroup(cg: CurveGen): void {
  const { mb, prefix: g } = cg;
  const t = cg.subgroupT;
  if (t === undefined) {
    mb.func(`${g}_is_in_subgroup`, { p: 'i32', scratch: 'i32' }, 'i32', [
      `${g}_is_in_subgroup(p, scratch) → 1, always: the cofactor of ${cg.params.name} is 1, so E(F_p) is the order-r group G1`,
      `and every affine point on the curve is in it (p assumed on the curve, as for the other curves). p and scratch are`,
      `not read (scratch: 0 bytes). Kept so that callers need no per-curve case; ${g}_decode_batch skips it. Cost: 0.`,
    ], (fb) => {
      fb.ret(i32.const(1));
    }, { scratch: cg.scratchBytes('subgroup') });
    return;
  }
  const weight = t.toString(2).replace(/0/g, '').length;
  const len = t.toString(2).length;
  mb.func(`${g}_is_in_subgroup`, { p: 'i32', scratch: 'i32' }, 'i32', [
    `${g}_is_in_subgroup(p, scratch) → 1 if the affine point p (assumed on the curve, finite) is in the order-r`,
    `subgroup, else 0. Test [t]([t]P) = ψ(P) + P with t² − 1 = lambda, |t| = 0x${t.toString(16)} (sign irrelevant):`,
    `ψ − [t² − 1] has degree (t² − 1)² + (t² − 1) + 1 whose gcd with #E(F_p) is r (asserted at generation), so`,
    `its kernel in E(F_p) is exactly G1 (the endomorphism method of Scott, eprint 2021/1130, in this form).`,
    `Both chains in Jacobian coordinates (doubling 2M + 5S), [t]P brought to affine between them (1I + 3M + 1S) so`,
    `that both use mixed additions; ψ(P) + P = (β²x, −y) (the chord through P and ψ(P) is horizontal), compared`,
    `without inversion. [t]P = O means P ∉ G1 (t < r). scratch: ${cg.scratchElements.subgroup} elements (${cg.scratchBytes('subgroup')} bytes).`,
    `Cost: 2·${len - 1} doublings (2M + 5S) + 2·${weight - 1} mixed additions (7M + 4S) + 1I + 2M (ψ²) + ≤ 4M.`,
  ], (fb) => {
    const P = fb.param('p', 'i32').get;
    const s = fb.param('scratch', 'i32').get;
    const A = s;
    const E = cg.el(s, 4);
    const C = cg.el(s, 6);
    const [T, U] = [cg.el(s, 8), cg.el(s, 9)];
    const ops = cg.el(s, 10);
    const f = (op: string, ...a: I32[]) => cg.fcall(fb, op, ...a);
    const counter = fb.local('c', 'i32');
    fb.comment('A = [|t|]P (Jacobian)');
    cg.copyElems(fb, A, P, 2);
    f('set_one', cg.el(A, 2));
    cg.mulConstJac(fb, A, t, P, ops, counter);
    fb.if(cg.fexpr(fb, 'is_zero', cg.el(A, 2)), () => fb.ret(i32.const(0)));
    fb.comment('E = A in affine; A = [|t|]E = [t²]P');
    f('inv', T, cg.el(A, 2));
    f('sqr', U, T);
    f('mul', E, A, U);
    f('mul', U, U, T);
    f('mul', cg.el(E, 1), cg.el(A, 1), U);
    cg.copyElems(fb, A, E, 2);
    f('set_one', cg.el(A, 2));
    cg.mulConstJac(fb, A, t, E, ops, counter);
    fb.comment('C = ψ²(P) = (β²x, y); in G1 iff A = ψ(P) + P = (β²x, −y)');
    fb.call(`${g}_endo`, C, P);
    fb.call(`${g}_endo`, C, C);
    fb.ret(cg.jacEqAffine(fb, A, C, cg.el(C, 1), true, [T, U]));
  }, { scratch: cg.scratchBytes('subgroup') });
}

/**
 * g1_subgroup_check_batch: the exact test of emitIsInSubgroup for many points at once, in affine
 * coordinates with one shared inversion per chain step (Montgomery's trick), and the tail of the
 * test reduced to a comparison: for affine P = (x, y), ψ(P) has the same y, so the chord through P
 * and ψ(P) is horizontal and ψ(P) + P = (−(1 + β)x, −y) = (β²x, −y) (1 + β + β² = 0); for x = 0
 * (ψ(P) = P, a point of order 3) the same formula gives −P = 2P. Exceptional steps (a doubling
 * with y = 0, an addition with equal x: only points with a component of small order reach them,
 * never a point of G1, since the chain's multiples [k]P, [k]Q stay below r) drop the point from
 * the batch; it gets the XYZZ test at the end.
 */
function emitSubgroupBatch(cg: CurveGen): void {
  const { mb, EB, prefix: g } = cg;
  const PB = 2 * EB;
  const t = cg.subgroupT;
  const name = `${g}_subgroup_check_batch`;
  const params = { points: 'i32', inf: 'i32', count: 'i32', scratch: 'i32' } as const;
  const head = `${name}(points, inf, count, scratch) → −1, or (i << ${STATUS_SHIFT}) | ${PointError.notInSubgroup} for the lowest i < count with inf[i] = 0 whose`;
  if (t === undefined) {
    const unread = countedScratch(subgroupBatchScratchBytes, EB, () => 0);
    mb.func(name, params, 'i32', [
      `${head} point is not in G1: never here, the cofactor of ${cg.params.name} is 1. Nothing is read (the runtime passes`,
      `scratch: ${unread.doc()}). Cost: 0.`,
    ], (fb) => {
      fb.ret(i32.const(-1));
    }, { scratch: unread });
    return;
  }
  const fixed = 8 + cg.scratchElements.subgroup;
  if (fixed > SUBGROUP_BATCH_FIXED_ELEMENTS) throw new Error(`${name}: ${fixed} fixed scratch elements exceed SUBGROUP_BATCH_FIXED_ELEMENTS`);
  // acc[count], base[count] (points) | prefix[count] | the fixed elements | state[count] (bytes)
  const scratchRule = countedScratch(subgroupBatchScratchBytes, EB, (count) => (5 * count + SUBGROUP_BATCH_FIXED_ELEMENTS) * EB + count);
  const bits = t.toString(2);
  const weight = bits.replace(/0/g, '').length;
  const f = cg.F;
  const call = (fb: FuncBuilder, op: string, ...args: I32[]) => fb.call(`${f}_${op}`, ...args);
  const at = (base: I32, k: I32, stride: number) => i32.add(base, i32.mul(k, i32.const(stride)));

  // one step for every active point k (state[k] = 0): acc[k] ← 2·acc[k], or acc[k] + base[k] when add ≠ 0.
  // work: prefix[count] | INV | T | LAM | X3 | T2 | D (elements). A zero denominator sets state[k] = 2.
  mb.func(`${g}_subgroup_batch_step`, { acc: 'i32', base: 'i32', state: 'i32', count: 'i32', work: 'i32', add: 'i32' }, undefined, [
    `${g}_subgroup_batch_step(acc, base, state, count, work, add): one affine doubling (add = 0) or addition of every active point`,
    `of ${name}, one inversion for all (internal).`,
  ], (fb) => {
    const acc = fb.param('acc', 'i32'), base = fb.param('base', 'i32'), state = fb.param('state', 'i32');
    const count = fb.param('count', 'i32'), work = fb.param('work', 'i32'), add = fb.param('add', 'i32');
    const k = fb.local('k', 'i32'), A = fb.local('A', 'i32'), B = fb.local('B', 'i32'), st = fb.local('st', 'i32');
    const tmp = (j: number) => i32.add(work.get, i32.add(i32.mul(count.get, i32.const(EB)), i32.const(j * EB)));
    const INV = tmp(0), T = tmp(1), LAM = tmp(2), X3 = tmp(3), T2 = tmp(4), D = tmp(5);
    const prefix = (idx: I32) => at(work.get, idx, EB);
    const yA = i32.add(A.get, i32.const(EB)), yB = i32.add(B.get, i32.const(EB));
    const denominator = () => fb.if(add.get, () => call(fb, 'sub', D, B.get, A.get), () => call(fb, 'double', D, yA));
    const point = () => {
      A.set(at(acc.get, k.get, PB));
      B.set(at(base.get, k.get, PB));
      st.set(i32.add(state.get, k.get));
    };
    // forward: D_k (x_B − x_A or 2·y_A; 1 for an inactive point) and prefix products
    fb.forRange(k, i32.const(0), count.get, 1, () => {
      point();
      fb.if(i32.eqz(i32.load8_u(st.get)), () => {
        denominator();
        fb.if(cg.fexpr(fb, 'is_zero', D), () => {
          fb.i32Store8(st.get, 0, i32.const(2));
          call(fb, 'set_one', D);
        });
      }, () => call(fb, 'set_one', D));
      fb.if(i32.eqz(k.get), () => call(fb, 'copy', prefix(k.get), D), () => call(fb, 'mul', prefix(k.get), prefix(i32.sub(k.get, i32.const(1))), D));
    });
    fb.if(i32.eqz(count.get), () => fb.ret());
    call(fb, 'inv', INV, prefix(i32.sub(count.get, i32.const(1))));
    // backward: 1/D_k = INV · prefix_{k−1}, INV ← INV · D_k (inactive points have D_k = 1: skipped)
    k.set(count.get);
    fb.loop((again) => {
      k.set(i32.sub(k.get, i32.const(1)));
      point();
      fb.if(i32.eqz(i32.load8_u(st.get)), () => {
        fb.if(i32.eqz(k.get), () => call(fb, 'copy', T, INV), () => {
          call(fb, 'mul', T, INV, prefix(i32.sub(k.get, i32.const(1))));
          denominator();
          call(fb, 'mul', INV, INV, D);
        });
        fb.if(add.get, () => {
          // λ = (y_B − y_A)/(x_B − x_A), x3 = λ² − x_A − x_B
          call(fb, 'sub', LAM, yB, yA);
          call(fb, 'mul', LAM, LAM, T);
          call(fb, 'sqr', X3, LAM);
          call(fb, 'sub', X3, X3, A.get);
          call(fb, 'sub', X3, X3, B.get);
        }, () => {
          // λ = 3x_A²/(2y_A), x3 = λ² − 2x_A
          call(fb, 'sqr', LAM, A.get);
          call(fb, 'double', T2, LAM);
          call(fb, 'add', LAM, LAM, T2);
          call(fb, 'mul', LAM, LAM, T);
          call(fb, 'sqr', X3, LAM);
          call(fb, 'sub', X3, X3, A.get);
          call(fb, 'sub', X3, X3, A.get);
        });
        // y3 = λ(x_A − x3) − y_A
        call(fb, 'sub', T2, A.get, X3);
        call(fb, 'mul', T2, T2, LAM);
        call(fb, 'sub', yA, T2, yA);
        call(fb, 'copy', A.get, X3);
      });
      fb.brIf(again, i32.ne(k.get, i32.const(0)));
    });
  }, { export: false });

  // acc[k] ← [|t|]·acc[k] (acc[k] = base[k] on entry), left to right over the bits of |t|
  mb.func(`${g}_subgroup_batch_chain`, { acc: 'i32', base: 'i32', state: 'i32', count: 'i32', work: 'i32' }, undefined, [
    `${g}_subgroup_batch_chain(acc, base, state, count, work): acc ← [|t|]·base for the active points of ${name} (internal).`,
  ], (fb) => {
    const args = ['acc', 'base', 'state', 'count', 'work'].map((p) => fb.param(p, 'i32').get);
    const counter = fb.local('run', 'i32');
    const step = (add: number) => fb.call(`${g}_subgroup_batch_step`, ...args, i32.const(add));
    emitDoubleAndAdd(fb, t, counter, () => step(0), () => step(1), (run, one) => `${run} doubling${run > 1 ? 's' : ''}${one ? ', then + base' : ''}`);
  }, { export: false });

  const beta2 = cg.fp.montLimbs((cg.params.beta * cg.params.beta) % cg.params.p).map((v) => i64.const(v));
  const steps = bits.length - 1 + weight - 1;
  mb.func(name, params, 'i32', [
    `${head} point (assumed on the curve) is not in the order-r subgroup G1. The same test as ${g}_is_in_subgroup,`,
    `[t]([t]P) = ψ(P) + P, |t| = 0x${t.toString(16)}, run for all points at once in affine coordinates: each of the 2·${steps} chain steps`,
    `(doubling or addition of the chain base) is one batch over the points with one shared inversion (Montgomery's trick),`,
    `then [t²]P is compared with ψ(P) + P = (β²x, −y). A point whose chain hits y = 0 or equal x (possible only outside G1,`,
    `for a component of small order) leaves the batch and gets ${g}_is_in_subgroup. points: count affine points (${PB} B each),`,
    `read only; inf: count bytes. scratch: ${scratchRule.doc()}: acc, base (count points each), prefix products,`,
    `${SUBGROUP_BATCH_FIXED_ELEMENTS} fixed elements, count state bytes; must not overlap the inputs. Cost per point: ${2 * (bits.length - 1)} doublings (5M + 2S) and ${2 * (weight - 1)} additions (5M + 1S),`,
    `plus 2·${steps} inversions per call (shared), + 1M; the XYZZ test for the rare dropped points.`,
  ], (fb) => {
    const points = fb.param('points', 'i32'), inf = fb.param('inf', 'i32'), count = fb.param('count', 'i32'), scratch = fb.param('scratch', 'i32');
    const k = fb.local('k', 'i32'), P = fb.local('P', 'i32'), A = fb.local('A', 'i32'), st = fb.local('st', 'i32');
    const acc = scratch.get;
    const base = at(scratch.get, count.get, PB);
    const work = at(scratch.get, count.get, 2 * PB);
    // work = prefix[count] | 8 temporaries | g1_is_in_subgroup's scratch; then the state bytes
    const tail = i32.add(at(scratch.get, count.get, 5 * EB), i32.const(8 * EB));
    const state = i32.add(at(scratch.get, count.get, 5 * EB), i32.const(SUBGROUP_BATCH_FIXED_ELEMENTS * EB));
    const point = () => {
      P.set(at(points.get, k.get, PB));
      A.set(at(acc, k.get, PB));
      st.set(i32.add(state, k.get));
    };
    fb.comment('state[k]: 0 in the batch, 1 infinity (skipped), 2 dropped (exceptional step: the XYZZ test)');
    fb.forRange(k, i32.const(0), count.get, 1, () => {
      point();
      fb.i32Store8(st.get, 0, i32.ne(i32.load8_u(i32.add(inf.get, k.get)), i32.const(0)));
      cg.copyElems(fb, A.get, P.get, 2);
    });
    fb.comment('acc = [|t|]P; base = acc; acc = [|t|]([|t|]P)');
    fb.call(`${g}_subgroup_batch_chain`, acc, points.get, state, count.get, work);
    fb.forRange(k, i32.const(0), count.get, 1, () => {
      point();
      cg.copyElems(fb, at(base, k.get, PB), A.get, 2);
    });
    fb.call(`${g}_subgroup_batch_chain`, acc, base, state, count.get, work);
    fb.comment('in G1 iff acc = (β²x, −y); dropped points: the XYZZ test; the lowest failing index wins');
    const X = fb.local('X', 'i32');
    X.set(i32.add(work, i32.mul(count.get, i32.const(EB))));
    fb.forRange(k, i32.const(0), count.get, 1, () => {
      point();
      const fail = () => fb.ret(i32.or(i32.shl(k.get, STATUS_SHIFT), i32.const(PointError.notInSubgroup)));
      fb.if(i32.eq(i32.load8_u(st.get), i32.const(2)), () => {
        fb.if(i32.eqz(fb.callExpr('i32', `${g}_is_in_subgroup`, P.get, tail)), fail);
      }, () => {
        fb.if(i32.eqz(i32.load8_u(st.get)), () => {
          const m = cg.fp.montMulCios(fb, P.get, beta2, 'b2');
          cg.fp.store(fb, X.get, m.map((v) => v.get));
          fb.if(i32.eqz(cg.fexpr(fb, 'eq', A.get, X.get)), fail);
          call(fb, 'neg', i32.add(X.get, i32.const(EB)), i32.add(P.get, i32.const(EB)));
          fb.if(i32.eqz(cg.fexpr(fb, 'eq', i32.add(A.get, i32.const(EB)), i32.add(X.get, i32.const(EB)))), fail);
        });
      });
    });
    fb.ret(i32.const(-1));
  }, { scratch: scratchRule });
}

/** Rough cost of is_in_subgroup in M-equivalents (S = M, an inversion 27 M, as stated in the headers). */
export function subgroupCostEstimate(t: bigint | undefined): number {
  if (t === undefined) return 0;
  const len = t.toString(2).length;
  const weight = t.toString(2).replace(/0/g, '').length;
  const est = 2 * (len - 1) * 7 + 2 * (weight - 1) * 11 + 27 + 5 + 2 + 4;
  return Math.round(est / 10) * 10;
}
