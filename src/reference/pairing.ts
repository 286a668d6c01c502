/**
 * Reference optimal ate pairing on plain bigints: the tower F_p⁶ = F_p²[v]/(v³ − ξ), F_p¹² =
 * F_p⁶[w]/(w² − v), the Miller loop with homogeneous-projective line functions, and the final
 * exponentiation. The oracle of the generated kernels (src/codegen/pairing.ts): every routine is the
 * algorithm the kernel runs, written directly; the whole is checked against @noble/curves
 * (test/pairing.test.ts), and the lines and points of the loop against affine arithmetic (RefG2).
 *
 * Notation (BLS12, M-type twist E′: y² = x³ + b′, b′ = b·ξ): u the curve parameter (negative for
 * BLS12-381), the untwist (x′, y′) ↦ (x′/w², y′/w³). A line is stored as three F_p² coefficients
 * (l0, l1, l4): evaluated at P = (xP, yP) ∈ G1 it is l0 + (l1·xP)·v + (l4·yP)·v·w, the "014" sparse
 * element of F_p¹² (basis 1, v, v², w, vw, v²w), up to a factor in a proper subfield that the final
 * exponentiation removes.
 */
import { millerSchedule, type G2Params, type MillerStep, type PairingParams } from '../curves/g2.js';

export type { PairingParams };
import { type Fp2, RefFp2 } from './fp2.js';
import type { G2Affine } from './g2.js';

export type Fp6 = readonly [Fp2, Fp2, Fp2];
export type Fp12 = readonly [Fp6, Fp6];
/** A line's coefficients (l0, l1, l4), independent of the G1 point. */
export type Line = readonly [Fp2, Fp2, Fp2];
/** T in homogeneous projective coordinates (x = X/Z, y = Y/Z). */
export type G2Proj = readonly [Fp2, Fp2, Fp2];

export class RefPairing {
  readonly F2: RefFp2;
  readonly p: bigint;
  readonly r: bigint;
  readonly xi: Fp2;
  /** 3·b′ (the doubling's constant) */
  readonly b3: Fp2;
  readonly schedule: MillerStep[];
  /** π(x, y) = (conj(x)·πx, conj(y)·πy) and π²(x, y) = (x·π2x, y·π2y) on the twist (BN's last two lines) */
  readonly pi: { x: Fp2; y: Fp2; x2: Fp2; y2: Fp2 };
  /** frob[n − 1][k] = ξ^(k·(pⁿ − 1)/6): w^(k·pⁿ) = frob[n−1][k]·w^k, n = 1…3, k = 0…5 */
  readonly frob: Fp2[][];
  readonly one12: Fp12;

  constructor(readonly g2: G2Params, readonly params: PairingParams) {
    this.F2 = new RefFp2(g2.g1.p);
    this.p = g2.g1.p;
    this.r = g2.g1.r;
    const F = this.F2;
    this.xi = F.of(params.xi);
    const b = F.of([g2.g1.b, 0n]);
    const twisted = params.twist === 'M' ? F.mul(b, this.xi) : F.mul(b, F.inv(this.xi));
    if (!F.eq(F.of(g2.b), twisted)) throw new Error(`RefPairing(${g2.name}): b′ ≠ b${params.twist === 'M' ? '·' : '/'}ξ (not a ${params.twist}-type twist over this ξ)`);
    // untwist–Frobenius–twist on E′: x ↦ conj(x)·ξ^(±(p − 1)/3), y ↦ conj(y)·ξ^(±(p − 1)/2) (+ for D-type, − for M-type)
    const e = (num: bigint, den: bigint) => F.pow(params.twist === 'D' ? this.xi : F.inv(this.xi), num / den);
    this.pi = { x: e(this.p - 1n, 3n), y: e(this.p - 1n, 2n), x2: e(this.p * this.p - 1n, 3n), y2: e(this.p * this.p - 1n, 2n) };
    this.b3 = F.mul([3n, 0n], F.of(g2.b));
    this.schedule = millerSchedule(params);
    this.frob = [1, 2, 3].map((n) => frobeniusCoefficients(F, this.xi, n));
    const z: Fp6 = [F.zero, F.zero, F.zero];
    this.one12 = [[F.one, F.zero, F.zero], z];
  }

  // ------------------------------------------------------------------ F_p⁶
  mulXi(a: Fp2): Fp2 {
    return this.F2.mul(a, this.xi);
  }
  add6(a: Fp6, b: Fp6): Fp6 {
    return [this.F2.add(a[0], b[0]), this.F2.add(a[1], b[1]), this.F2.add(a[2], b[2])];
  }
  sub6(a: Fp6, b: Fp6): Fp6 {
    return [this.F2.sub(a[0], b[0]), this.F2.sub(a[1], b[1]), this.F2.sub(a[2], b[2])];
  }
  neg6(a: Fp6): Fp6 {
    return [this.F2.neg(a[0]), this.F2.neg(a[1]), this.F2.neg(a[2])];
  }
  /** a·v = (ξ·a2, a0, a1). */
  mulV(a: Fp6): Fp6 {
    return [this.mulXi(a[2]), a[0], a[1]];
  }
  /** Karatsuba over F_p²: 6 F_p² products. */
  mul6(a: Fp6, b: Fp6): Fp6 {
    const F = this.F2;
    const t0 = F.mul(a[0], b[0]), t1 = F.mul(a[1], b[1]), t2 = F.mul(a[2], b[2]);
    const c0 = F.add(t0, this.mulXi(F.sub(F.sub(F.mul(F.add(a[1], a[2]), F.add(b[1], b[2])), t1), t2)));
    const c1 = F.add(F.sub(F.sub(F.mul(F.add(a[0], a[1]), F.add(b[0], b[1])), t0), t1), this.mulXi(t2));
    const c2 = F.add(F.sub(F.sub(F.mul(F.add(a[0], a[2]), F.add(b[0], b[2])), t0), t2), t1);
    return [c0, c1, c2];
  }
  /** a·(b0 + b1·v): 5 F_p² products. */
  mul6By01(a: Fp6, b0: Fp2, b1: Fp2): Fp6 {
    const F = this.F2;
    const t0 = F.mul(a[0], b0), t1 = F.mul(a[1], b1);
    return [
      F.add(t0, this.mulXi(F.mul(a[2], b1))),
      F.sub(F.sub(F.mul(F.add(a[0], a[1]), F.add(b0, b1)), t0), t1),
      F.add(F.mul(a[2], b0), t1),
    ];
  }
  /** a·(b1·v): 3 F_p² products. */
  mul6By1(a: Fp6, b1: Fp2): Fp6 {
    const F = this.F2;
    return [this.mulXi(F.mul(a[2], b1)), F.mul(a[0], b1), F.mul(a[1], b1)];
  }
  /** 1/a by the adjugate: c0 = a0² − ξa1a2, c1 = ξa2² − a0a1, c2 = a1² − a0a2, t = a0c0 + ξ(a2c1 + a1c2). */
  inv6(a: Fp6): Fp6 {
    const F = this.F2;
    const c0 = F.sub(F.sqr(a[0]), this.mulXi(F.mul(a[1], a[2])));
    const c1 = F.sub(this.mulXi(F.sqr(a[2])), F.mul(a[0], a[1]));
    const c2 = F.sub(F.sqr(a[1]), F.mul(a[0], a[2]));
    const t = F.inv(F.add(F.mul(a[0], c0), this.mulXi(F.add(F.mul(a[2], c1), F.mul(a[1], c2)))));
    return [F.mul(c0, t), F.mul(c1, t), F.mul(c2, t)];
  }

  // ------------------------------------------------------------------ F_p¹²
  /** Karatsuba over F_p⁶: 3 F_p⁶ products (18 F_p²). */
  mul(a: Fp12, b: Fp12): Fp12 {
    const t0 = this.mul6(a[0], b[0]), t1 = this.mul6(a[1], b[1]);
    const c1 = this.sub6(this.sub6(this.mul6(this.add6(a[0], a[1]), this.add6(b[0], b[1])), t0), t1);
    return [this.add6(t0, this.mulV(t1)), c1];
  }
  /** Complex method: t = a0·a1, c0 = (a0 + a1)(a0 + v·a1) − t − v·t, c1 = 2t: 2 F_p⁶ products. */
  sqr(a: Fp12): Fp12 {
    const t = this.mul6(a[0], a[1]);
    const c0 = this.sub6(this.sub6(this.mul6(this.add6(a[0], a[1]), this.add6(a[0], this.mulV(a[1]))), t), this.mulV(t));
    return [c0, this.add6(t, t)];
  }
  /**
   * f·ℓ for an evaluated line (c, s·xP, t·yP): M-type ℓ = (c + s·xP·v) + (t·yP·v)·w (shape 014), D-type
   * ℓ = t·yP + (s·xP + c·v)·w (shape 034). 13 F_p² products either way.
   */
  mulLine(f: Fp12, c: Fp2, sx: Fp2, ty: Fp2): Fp12 {
    const F = this.F2;
    if (this.params.twist === 'M') {
      const t0 = this.mul6By01(f[0], c, sx);
      const t1 = this.mul6By1(f[1], ty);
      const c1 = this.sub6(this.sub6(this.mul6By01(this.add6(f[0], f[1]), c, F.add(sx, ty)), t0), t1);
      return [this.add6(t0, this.mulV(t1)), c1];
    }
    const t0: Fp6 = [F.mul(f[0][0], ty), F.mul(f[0][1], ty), F.mul(f[0][2], ty)];
    const t1 = this.mul6By01(f[1], sx, c);
    const c1 = this.sub6(this.sub6(this.mul6By01(this.add6(f[0], f[1]), F.add(ty, sx), c), t0), t1);
    return [this.add6(t0, this.mulV(t1)), c1];
  }
  /**
   * f·ℓ for a normalized line (normalizeLines) evaluated at P as (a, b) = ((c/t)/yP, (s/t)·xP/yP): M-type ℓ =
   * (a + b·v) + v·w = L0 + v·w, f·ℓ = (f0·L0 + v²·f1) + (f1·L0 + v·f0)·w; D-type ℓ = 1 + (b + a·v)·w = 1 + L1·w,
   * f·ℓ = (f0 + v·f1·L1) + (f1 + f0·L1)·w. 10 F_p² products either way.
   */
  mulLineNormalized(f: Fp12, a: Fp2, b: Fp2): Fp12 {
    if (this.params.twist === 'M') return [this.add6(this.mul6By01(f[0], a, b), this.mulV(this.mulV(f[1]))), this.add6(this.mul6By01(f[1], a, b), this.mulV(f[0]))];
    return [this.add6(f[0], this.mulV(this.mul6By01(f[1], b, a))), this.add6(f[1], this.mul6By01(f[0], b, a))];
  }
  /** a^(p⁶) = a0 − a1·w: the inverse on the cyclotomic subgroup. */
  conj(a: Fp12): Fp12 {
    return [a[0], this.neg6(a[1])];
  }
  /** 1/a = conj(a)/(a0² − v·a1²). */
  inv(a: Fp12): Fp12 {
    const t = this.inv6(this.sub6(this.mul6(a[0], a[0]), this.mulV(this.mul6(a[1], a[1]))));
    return [this.mul6(a[0], t), this.neg6(this.mul6(a[1], t))];
  }
  /** a^(pⁿ), n = 1…3: each coefficient of w^k conjugated n times, times ξ^(k(pⁿ − 1)/6). */
  frobenius(a: Fp12, n: 1 | 2 | 3): Fp12 {
    const F = this.F2;
    const g = this.frob[n - 1]!;
    const map = (c: Fp2, k: number) => F.mul(n % 2 === 1 ? F.conj(c) : c, g[k]!);
    return [
      [map(a[0][0], 0), map(a[0][1], 2), map(a[0][2], 4)],
      [map(a[1][0], 1), map(a[1][1], 3), map(a[1][2], 5)],
    ];
  }
  /**
   * Squaring in the cyclotomic subgroup (Granger–Scott, PKC 2010, §3.2), over F_p⁴ = F_p²[s]/(s² − ξ),
   * s = w³: a = z0 + z1·w + z2·w² with z0 = (a00, a11), z1 = (a10, a02), z2 = (a01, a12);
   * a² = (3z0² − 2z̄0) + (3s·z2² + 2z̄1)·w + (3z1² − 2z̄2)·w², z̄ = conjugate over F_p². 9 F_p² squarings.
   */
  cyclotomicSqr(a: Fp12): Fp12 {
    const F = this.F2;
    const sq4 = (x: Fp2, y: Fp2): [Fp2, Fp2] => {
      const x2 = F.sqr(x), y2 = F.sqr(y);
      return [F.add(x2, this.mulXi(y2)), F.sub(F.sub(F.sqr(F.add(x, y)), x2), y2)];
    };
    const three = (t: Fp2) => F.add(F.add(t, t), t);
    const two = (t: Fp2) => F.add(t, t);
    const [A0, A1] = sq4(a[0][0], a[1][1]);
    const [B0, B1] = sq4(a[1][0], a[0][2]);
    const [C0, C1] = sq4(a[0][1], a[1][2]);
    // z0' = 3A − 2z̄0 = (3A0 − 2a00, 3A1 + 2a11); z1' = 3s·C + 2z̄1 = (3ξC1 + 2a10, 3C0 − 2a02); z2' = 3B − 2z̄2
    const c00 = F.sub(three(A0), two(a[0][0]));
    const c11 = F.add(three(A1), two(a[1][1]));
    const c10 = F.add(three(this.mulXi(C1)), two(a[1][0]));
    const c02 = F.sub(three(C0), two(a[0][2]));
    const c01 = F.sub(three(B0), two(a[0][1]));
    const c12 = F.add(three(B1), two(a[1][2]));
    return [[c00, c01, c02], [c10, c11, c12]];
  }
  /**
   * Compressed squaring (Karabina, Math. Comp. 82, 2013) in this tower: of a cyclotomic a it keeps z1 =
   * (a10, a02) and z2 = (a01, a12), whose Granger–Scott squares above depend on z1 and z2 alone (6 F_p²
   * squarings); a00 and a11 of the result are those of a (stale).
   */
  karabinaSqr(a: Fp12): Fp12 {
    const full = this.cyclotomicSqr(a);
    return [[a[0][0], full[0][1], full[0][2]], [full[1][0], a[1][1], full[1][2]]];
  }
  /**
   * The cyclotomic element whose compressed coefficients a01, a02, a10, a12 are a's: a11 = (ξ·a12² +
   * 3·a01² − 2·a02)/(4·a10), a00 = ξ·(2·a11² − 3·a01·a02 + a10·a12) + 1 (these two identities of the
   * cyclotomic subgroup checked by test/pairing.test.ts); null when a10 = 0 (then they do not determine it).
   */
  karabinaDecompress(a: Fp12): Fp12 | null {
    const F = this.F2;
    const [a01, a02, a10, a12] = [a[0][1], a[0][2], a[1][0], a[1][2]];
    if (F.eq(a10, F.zero)) return null;
    const num = F.sub(F.add(this.mulXi(F.sqr(a12)), F.mulFp(F.sqr(a01), 3n)), F.add(a02, a02));
    const a11 = F.mul(num, F.inv(F.mulFp(a10, 4n)));
    const a00 = F.add(this.mulXi(F.add(F.sub(F.mulFp(F.sqr(a11), 2n), F.mulFp(F.mul(a01, a02), 3n)), F.mul(a10, a12))), F.one);
    return [[a00, a01, a02], [a10, a11, a12]];
  }
  /** a^|u| by square-and-multiply with cyclotomic squarings, conjugated when u < 0: a^u. */
  expU(a: Fp12): Fp12 {
    const { u } = this.params;
    const bits = (u < 0n ? -u : u).toString(2);
    let acc = a;
    for (const b of bits.slice(1)) {
      acc = this.cyclotomicSqr(acc);
      if (b === '1') acc = this.mul(acc, a);
    }
    return u < 0n ? this.conj(acc) : acc;
  }
  pow(a: Fp12, e: bigint): Fp12 {
    let acc = this.one12;
    for (const b of e.toString(2)) {
      acc = this.sqr(acc);
      if (b === '1') acc = this.mul(acc, a);
    }
    return acc;
  }
  eq(a: Fp12, b: Fp12): boolean {
    return a.every((c, i) => c.every((d, j) => this.F2.eq(d, b[i]![j]!)));
  }

  // ------------------------------------------------------------------ lines
  /**
   * Tangent at T and 2T (homogeneous, a = 0; the doubling of Costello–Lange–Naehrig, PKC 2010, §5,
   * every coordinate scaled by 4 to avoid halvings): with B = Y², C = Z², E = 3b′C, F = 3E, H = 2YZ,
   * X3 = 2XY(B − F), Y3 = (B + F)² − 12E², Z3 = 4B·H; line (B − E, −3X², H).
   */
  doubleStep(T: G2Proj): { T: G2Proj; line: Line } {
    const F = this.F2;
    const [X, Y, Z] = T;
    const B = F.sqr(Y), C = F.sqr(Z);
    const E = F.mul(this.b3, C);
    const F3 = F.add(F.add(E, E), E);
    const H = F.sub(F.sqr(F.add(Y, Z)), F.add(B, C));
    const XY = F.mul(X, Y);
    const X3 = F.mul(F.add(XY, XY), F.sub(B, F3));
    const E2 = F.sqr(E);
    const Y3 = F.sub(F.sqr(F.add(B, F3)), F.mul([12n, 0n], E2));
    const B4 = F.add(F.add(B, B), F.add(B, B));
    const Z3 = F.mul(B4, H);
    const X2 = F.sqr(X);
    return { T: [X3, Y3, Z3], line: [F.sub(B, E), F.neg(F.add(F.add(X2, X2), X2)), H] };
  }
  /**
   * Chord through T and the affine Q, and T + Q (mixed homogeneous addition, same source): θ = Y − Z·yQ,
   * λ = X − Z·xQ, C = θ², D = λ², E = λ·D, F = Z·C, G = X·D, H = E + F − 2G, X3 = λH, Y3 = θ(G − H) − Y·E,
   * Z3 = Z·E; line (θ·xQ − λ·yQ, −θ, λ).
   */
  addStep(T: G2Proj, Q: G2Affine): { T: G2Proj; line: Line } {
    const F = this.F2;
    const [X, Y, Z] = T;
    const theta = F.sub(Y, F.mul(Z, Q.y));
    const lambda = F.sub(X, F.mul(Z, Q.x));
    const C = F.sqr(theta), D = F.sqr(lambda);
    const E = F.mul(lambda, D), Fz = F.mul(Z, C), G = F.mul(X, D);
    const H = F.sub(F.add(E, Fz), F.add(G, G));
    const X3 = F.mul(lambda, H);
    const Y3 = F.sub(F.mul(theta, F.sub(G, H)), F.mul(Y, E));
    const Z3 = F.mul(Z, E);
    const l0 = F.sub(F.mul(theta, Q.x), F.mul(lambda, Q.y));
    return { T: [X3, Y3, Z3], line: [l0, F.neg(theta), lambda] };
  }
  /** The lines of the Miller loop of Q (finite, in G2), in schedule order: "prepared" Q. */
  prepare(Q: G2Affine): Line[] {
    const F = this.F2;
    let T: G2Proj = [Q.x, Q.y, F.one];
    const { pi } = this;
    const other: Record<Exclude<MillerStep, 'dbl'>, G2Affine> = {
      add: Q,
      sub: { x: Q.x, y: F.neg(Q.y) },
      frob1: { x: F.mul(F.conj(Q.x), pi.x), y: F.mul(F.conj(Q.y), pi.y) },
      frob2: { x: F.mul(Q.x, pi.x2), y: F.neg(F.mul(Q.y, pi.y2)) },
    };
    const lines: Line[] = [];
    for (const s of this.schedule) {
      const step = s === 'dbl' ? this.doubleStep(T) : this.addStep(T, other[s]);
      T = step.T;
      lines.push(step.line);
    }
    return lines;
  }
  /**
   * Prepared lines in the fixed-argument form (Costello–Stebila, Latincrypt 2010): (c/t, s/t, 1), evaluated at P
   * as ((c/t)/yP, (s/t)·xP/yP), i.e. ℓ(P)/(t·yP), a factor in F_p² that the final exponentiation removes; then
   * mulLineNormalized (10 F_p² products instead of 13). t ≠ 0: 2YZ at a doubling (no 2-torsion in G2), X − Z·xQ at
   * an addition (T ≠ ±Q).
   */
  normalizeLines(lines: readonly Line[]): Line[] {
    const F = this.F2;
    return lines.map(([c, sl, t]) => {
      const ti = F.inv(t);
      return [F.mul(c, ti), F.mul(sl, ti), F.one] as const;
    });
  }
  /** ∏ f_{u,Q_i}(P_i) over prepared pairs (P finite in G1 as (x, y), lines of prepare), one squaring per bit for all. */
  millerLoop(pairs: readonly { P: { x: bigint; y: bigint }; lines: readonly Line[]; normalized?: boolean }[]): Fp12 {
    const F = this.F2;
    let f = this.one12;
    let k = 0;
    for (let s = 0; s < this.schedule.length; s++) {
      if (this.schedule[s] === 'dbl' && s > 0) f = this.sqr(f);
      for (const { P, lines, normalized } of pairs) {
        const [l0, l1, l4] = lines[k]!;
        if (normalized) {
          // ((c/t)/yP, (s/t)·xP/yP)
          const yi = F.Fp.inv(P.y);
          f = this.mulLineNormalized(f, F.mulFp(l0, yi), F.mulFp(l1, F.Fp.mul(P.x, yi)));
        } else f = this.mulLine(f, l0, F.mulFp(l1, P.x), F.mulFp(l4, P.y)); // (c, s·xP, t·yP)
      }
      k++;
    }
    return this.params.family === 'bls12' && this.params.u < 0n ? this.conj(f) : f;
  }
  /**
   * f^(3(p¹² − 1)/r): the easy part f^((p⁶ − 1)(p² + 1)), then the hard part of Hayashida–Hayasaka–Teruya
   * (eprint 2020/875) for BLS12: 3(p⁴ − p² + 1)/r = (u − 1)²(u + p)(u² + p² − 1) + 3, by five
   * exponentiations by u. The cube of the reduced pairing (as @noble/curves computes it; 3 ∤ r).
   */
  finalExp(f: Fp12): Fp12 {
    let t = this.mul(this.conj(f), this.inv(f));
    t = this.mul(this.frobenius(t, 2), t);
    return this.params.family === 'bn' ? this.hardPartBn(t) : this.hardPartBls12(t);
  }
  private hardPartBls12(t: Fp12): Fp12 {
    const a = this.mul(this.expU(t), this.conj(t)); // t^(u − 1)
    const b = this.mul(this.expU(a), this.conj(a)); // t^((u − 1)²)
    const c = this.mul(this.expU(b), this.frobenius(b, 1)); // ·(u + p)
    const d = this.mul(this.mul(this.expU(this.expU(c)), this.frobenius(c, 2)), this.conj(c)); // ·(u² + p² − 1)
    return this.mul(d, this.mul(this.cyclotomicSqr(t), t)); // · t³
  }
  /**
   * BN: t^(λ0 + λ1·p + λ2·p² + λ3·p³), the multiple 2u(6u² + 3u + 1)·(p⁴ − p² + 1)/r of Fuentes-Castañeda,
   * Knapp and Rodríguez-Henríquez ("Faster hashing to G2", SAC 2011, §6; the power @noble/curves takes):
   * λ0 = 12u³ + 12u² + 6u + 1, λ1 = 12u³ + 6u² + 4u, λ2 = 12u³ + 6u² + 6u, λ3 = λ1 − 1; three exponentiations by u.
   */
  private hardPartBn(t: Fp12): Fp12 {
    const b = this.cyclotomicSqr(this.expU(t)); // t^(2u)
    const c = this.mul(this.cyclotomicSqr(b), b); // t^(6u)
    const d = this.expU(c); // t^(6u²)
    const g = this.cyclotomicSqr(this.expU(d)); // t^(12u³)
    const y8 = this.mul(this.mul(g, d), c); // λ2
    const y9 = this.mul(y8, this.conj(b)); // λ1
    const l3 = this.mul(y9, this.conj(t));
    const l0 = this.mul(this.mul(y8, d), t);
    return this.mul(this.mul(this.frobenius(l3, 3), this.frobenius(y8, 2)), this.mul(this.frobenius(y9, 1), l0));
  }
  /** e(P, Q) (null = infinity: 1). */
  pairing(P: { x: bigint; y: bigint } | null, Q: G2Affine | null): Fp12 {
    return this.pairingProduct([[P, Q]]);
  }
  /** ∏ e(P_i, Q_i) with one final exponentiation; pairs with an infinity contribute 1. */
  pairingProduct(pairs: readonly (readonly [{ x: bigint; y: bigint } | null, G2Affine | null])[]): Fp12 {
    const live = pairs.filter(([P, Q]) => P !== null && Q !== null).map(([P, Q]) => ({ P: P!, lines: this.prepare(Q!) }));
    if (live.length === 0) return this.one12;
    return this.finalExp(this.millerLoop(live));
  }
}

/** γ_k = ξ^(k(pⁿ − 1)/6), k = 0…5 (pⁿ ≡ 1 mod 6 for these primes: checked). */
export function frobeniusCoefficients(F: RefFp2, xi: Fp2, n: number): Fp2[] {
  const pn = F.p ** BigInt(n);
  if ((pn - 1n) % 6n !== 0n) throw new Error('frobeniusCoefficients: pⁿ ≢ 1 mod 6');
  const g = F.pow(xi, (pn - 1n) / 6n);
  const out: Fp2[] = [F.one];
  for (let k = 1; k < 6; k++) out.push(F.mul(out[k - 1]!, g));
  return out;
}
