/**
 * EIP-2537's seven BLS12-381 precompiles (0x0b–0x11) on pippin's bls12-381 instance, synchronous, on
 * the calling thread, with ethereumjs's EVMBLSInterface shape (bytes in, bytes out, errors thrown).
 *
 * - ADD (no subgroup check, so points outside G1/G2 are valid operands): affine addition on bigints
 *   (src/reference/curve.ts, g2.ts: one field inversion), after the on-curve check.
 * - MSM (k ≥ 1; k = 1 is one scalar multiplication): the group's `msmSync` with `validate: 'full'`
 *   (on the curve and in the subgroup; pippin's GLV and bucket method need subgroup points), scalars
 *   reduced mod r (the EIP allows any 256-bit scalar: s·P = (s mod r)·P for P in G1/G2).
 * - PAIRING_CHECK: the points validated as by the MSM, then the internal Pairing's multi-Miller loop
 *   and one final exponentiation (src/msm/pairing.ts).
 * - MAP_FP_TO_G1, MAP_FP2_TO_G2: simplified SWU, isogeny, cofactor clearing (src/reference/map-to-curve.ts).
 *
 * Encodings: a field element is 64 bytes big-endian whose top 16 are zero, below p; G1 = x‖y (128),
 * G2 = x.c0‖x.c1‖y.c0‖y.c1 (256); infinity is all zeros; a scalar is 32 bytes big-endian.
 */
import { bls12_381, NotInSubgroupError, NotOnCurveError } from '../index.js';
import { groupContextOf } from '../api/group.js';
import { Pairing } from '../msm/pairing.js';
import type { G1AffineValue } from '../msm/group.js';
import { registry } from '../curves/index.js';
import { bls12_381G2 } from '../curves/bls12-381.js';
import { RefCurve } from '../reference/curve.js';
import { RefG2 } from '../reference/g2.js';
import { mapFp2ToG2, mapFpToG1 } from '../reference/map-to-curve.js';
import { checkLength, inputError, readBE, readFp, writeBE, type Site } from './bytes.js';

type G1Value = { x: bigint; y: bigint } | null;
type G2Value = { x: [bigint, bigint]; y: [bigint, bigint] } | null;

const FP = 64;
const G1_BYTES = 128;
const G2_BYTES = 256;
const SCALAR = 32;

const p = bls12_381.params.p;
const site = (name: string): Site => ({ name, p });
const SITES = {
  g1add: site('BLS12_G1ADD'),
  g1msm: site('BLS12_G1MSM'),
  g2add: site('BLS12_G2ADD'),
  g2msm: site('BLS12_G2MSM'),
  pairing: site('BLS12_PAIRING_CHECK'),
  mapG1: site('BLS12_MAP_FP_TO_G1'),
  mapG2: site('BLS12_MAP_FP2_TO_G2'),
};

/** The EIP-2537 backend (the object `createEvmBackends` returns as `bls`). */
export class Bls12381Precompiles {
  private readonly ref1 = new RefCurve(bls12_381.params);
  private readonly ref2 = new RefG2(bls12_381G2);
  private pairingEngine: Pairing | undefined;

  private pairing(): Pairing {
    // made at the first pairing check (the curve is initialized by then: createEvmBackends awaited init)
    return (this.pairingEngine ??= new Pairing(groupContextOf<G1AffineValue>(bls12_381.g1), registry['bls12-381'].g2.pairing!));
  }

  private g1At(s: Site, input: Uint8Array, off: number, index: number): G1Value {
    const x = readFp(s, input, off, FP, 'x', index);
    const y = readFp(s, input, off + FP, FP, 'y', index);
    return x === 0n && y === 0n ? null : { x, y };
  }
  private g2At(s: Site, input: Uint8Array, off: number, index: number): G2Value {
    const c = [0, 1, 2, 3].map((j) => readFp(s, input, off + j * FP, FP, ['x.c0', 'x.c1', 'y.c0', 'y.c1'][j]!, index));
    return c.every((v) => v === 0n) ? null : { x: [c[0]!, c[1]!], y: [c[2]!, c[3]!] };
  }
  private g1Out(P: G1Value): Uint8Array {
    const out = new Uint8Array(G1_BYTES);
    if (P) {
      writeBE(out, 0, FP, P.x);
      writeBE(out, FP, FP, P.y);
    }
    return out;
  }
  private g2Out(P: { readonly x: readonly [bigint, bigint]; readonly y: readonly [bigint, bigint] } | null): Uint8Array {
    const out = new Uint8Array(G2_BYTES);
    if (P) [P.x[0], P.x[1], P.y[0], P.y[1]].forEach((c, j) => writeBE(out, j * FP, FP, c));
    return out;
  }

  /** BLS12_G1ADD (0x0b): 256 bytes (two G1 points, on the curve, any subgroup) → their sum, 128 bytes. */
  addG1(input: Uint8Array): Uint8Array {
    const s = SITES.g1add;
    checkLength(s, input, 2 * G1_BYTES, true);
    return this.g1Out(addPair(s, 'G1', this.ref1, (i) => this.g1At(s, input, i * G1_BYTES, i)));
  }

  /** BLS12_G2ADD (0x0d): 512 bytes (two G2 points, on the curve, any subgroup) → their sum, 256 bytes. */
  addG2(input: Uint8Array): Uint8Array {
    const s = SITES.g2add;
    checkLength(s, input, 2 * G2_BYTES, true);
    return this.g2Out(addPair(s, 'G2', this.ref2, (i) => this.g2At(s, input, i * G2_BYTES, i)));
  }

  /** BLS12_G1MSM (0x0c): 160·k bytes (G1 point in G1 ‖ 32-byte scalar, k ≥ 1) → Σ s_i·P_i, 128 bytes. */
  msmG1(input: Uint8Array): Uint8Array {
    const s = SITES.g1msm;
    const [points, scalars] = this.msmInput(s, input, G1_BYTES, (off, i) => this.g1At(s, input, off, i));
    const R = groupCall(s, 'G1', () => bls12_381.g1.msmSync(points, scalars));
    return this.g1Out(R.infinity ? null : R);
  }

  /** BLS12_G2MSM (0x0e): 288·k bytes (G2 point in G2 ‖ 32-byte scalar, k ≥ 1) → Σ s_i·Q_i, 256 bytes. */
  msmG2(input: Uint8Array): Uint8Array {
    const s = SITES.g2msm;
    const [points, scalars] = this.msmInput(s, input, G2_BYTES, (off, i) => this.g2At(s, input, off, i));
    const R = groupCall(s, 'G2', () => bls12_381.g2.msmSync(points, scalars));
    return this.g2Out(R.infinity ? null : R);
  }

  /** The k (point, scalar) pairs of an MSM input: points decoded by `point`, scalars 32 bytes big-endian. */
  private msmInput<P>(s: Site, input: Uint8Array, pointBytes: number, point: (off: number, index: number) => P): [P[], bigint[]] {
    const k = checkLength(s, input, pointBytes + SCALAR, false);
    const points: P[] = new Array(k);
    const scalars: bigint[] = new Array(k);
    for (let i = 0, off = 0; i < k; i++, off += pointBytes + SCALAR) {
      points[i] = point(off, i);
      scalars[i] = readBE(input, off + pointBytes, SCALAR);
    }
    return [points, scalars];
  }

  /** BLS12_PAIRING_CHECK (0x0f): 384·k bytes (G1 ‖ G2 pairs, in the subgroups) → 32 bytes, 1 iff ∏ e(P_i, Q_i) = 1. */
  pairingCheck(input: Uint8Array): Uint8Array {
    const s = SITES.pairing;
    const k = checkLength(s, input, G1_BYTES + G2_BYTES, false);
    const g1: G1Value[] = [];
    const g2: G2Value[] = [];
    for (let i = 0, off = 0; i < k; i++, off += G1_BYTES + G2_BYTES) {
      g1.push(this.g1At(s, input, off, i));
      g2.push(this.g2At(s, input, off + G1_BYTES, i));
    }
    // the groups' decoders check curve and subgroup (scalars 0: the MSM itself is empty work)
    const zeros = new Array<bigint>(k).fill(0n);
    groupCall(s, 'G1', () => bls12_381.g1.msmSync(g1, zeros));
    groupCall(s, 'G2', () => bls12_381.g2.msmSync(g2, zeros));
    const out = new Uint8Array(32);
    out[31] = this.pairing().pairingCheck(g1.map((P, i) => [P, g2[i]!] as const)) ? 1 : 0;
    return out;
  }

  /** BLS12_MAP_FP_TO_G1 (0x10): 64 bytes (u ∈ F_p) → a G1 point, 128 bytes. */
  mapFPtoG1(input: Uint8Array): Uint8Array {
    const s = SITES.mapG1;
    checkLength(s, input, FP, true);
    return this.g1Out(mapFpToG1(readFp(s, input, 0, FP, 'u', -1)));
  }

  /** BLS12_MAP_FP2_TO_G2 (0x11): 128 bytes (u = c0‖c1 ∈ F_p²) → a G2 point, 256 bytes. */
  mapFP2toG2(input: Uint8Array): Uint8Array {
    const s = SITES.mapG2;
    checkLength(s, input, 2 * FP, true);
    return this.g2Out(mapFp2ToG2([readFp(s, input, 0, FP, 'u.c0', -1), readFp(s, input, FP, FP, 'u.c1', -1)]));
  }
}

/**
 * The sum of an ADD precompile's two points, `read(0)` and `read(1)`, each on the curve or infinity
 * (any subgroup: the EIPs check none for ADD, so this is bigint arithmetic, not pippin's GLV MSM).
 */
export function addPair<P>(s: Site, group: string, ref: { isOnCurve(p: P): boolean; add(p: P, q: P): P }, read: (i: number) => P): P {
  const [P, Q] = [0, 1].map((i) => {
    const pt = read(i);
    if (!ref.isOnCurve(pt)) throw inputError(s, 'point not on curve', `point ${i} is neither on the ${group} curve nor infinity`, i);
    return pt;
  });
  return ref.add(P!, Q!);
}

/** Runs a group call, turning its point errors into the EIP's reasons (index: the pair). */
export function groupCall<T>(s: Site, group: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof NotInSubgroupError) throw inputError(s, 'point not in subgroup', `point ${e.index} is on the ${group} curve but not in the order-r subgroup`, e.index);
    if (e instanceof NotOnCurveError) throw inputError(s, 'point not on curve', `point ${e.index} is neither on the ${group} curve nor infinity`, e.index);
    throw e;
  }
}
