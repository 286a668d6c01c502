/**
 * Test points of E(F_p) from the bigint reference, for any curve of the registry: random curve
 * points (outside G1 almost surely when h1 > 1) and points of small prime order ℓ, derived from the
 * group order #E = h1·r rather than hard-coded.
 */
import type { AffinePoint, RefCurve } from '../../src/reference/curve.js';
import type { Rng } from '../../src/reference/rng.js';

/** Random point of E(F_p): random x, y = ±√(x³ + a·x + b). */
export function randomCurvePoint(ref: RefCurve, rng: Rng): AffinePoint {
  const { Fp, a, b } = ref;
  for (;;) {
    const x = Fp.random(rng);
    const y = Fp.sqrt(Fp.add(Fp.add(Fp.pow(x, 3n), Fp.mul(a, x)), b));
    if (y !== undefined) return { x, y: rng.nextBigint(1) ? y : Fp.neg(y) };
  }
}

/**
 * Points of prime order ℓ in E(F_p), [] when ℓ ∤ #E. One is found as ℓ^j·(m·Q) for a random Q, with
 * m the part of #E prime to ℓ; the list is its orbit under negation and the endomorphism, closed
 * under addition (so P and −P are both present, P first).
 */
export function pointsOfOrder(ref: RefCurve, ell: bigint, rng: Rng): AffinePoint[] {
  let m = ref.params.h1 * ref.params.r;
  if (m % ell !== 0n) return [];
  while (m % ell === 0n) m /= ell;
  let T = null as AffinePoint | null;
  for (let tries = 0; T === null; tries++) {
    if (tries === 16) throw new Error(`pointsOfOrder(${ref.params.name}, ${ell}): no point found`);
    T = ref.mul(randomCurvePoint(ref, rng), m);
  }
  for (let U = ref.mul(T, ell); U !== null; U = ref.mul(U, ell)) T = U;
  const out: AffinePoint[] = [];
  const put = (P: AffinePoint | null) => {
    if (P === null || out.some((Q) => ref.eq(P, Q))) return false;
    out.push(P, ref.neg(P) as AffinePoint);
    if (ref.eq(P, ref.neg(P))) out.pop(); // order 2: P = −P
    return true;
  };
  put(T);
  put(ref.endo(T));
  put(ref.endo(ref.endo(T)));
  for (let grew = true; grew; ) {
    grew = false;
    for (const P of [...out]) for (const Q of [...out]) grew = put(ref.add(P, Q)) || grew;
  }
  return out;
}
