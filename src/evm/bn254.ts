/**
 * EIP-196's ecAdd (0x06) and ecMul (0x07) and EIP-197's ecPairing (0x08) on pippin's bn254
 * instance, with ethereumjs's EVMBN254Interface shape.
 *
 * Inputs: 32-byte big-endian coordinates below p ((0, 0) is infinity; other points must be on
 * y² = x³ + 3, whose points all lie in the order-r group: cofactor 1), 32-byte scalars (any value,
 * reduced mod r). Shorter inputs are read as if right-padded with zeros, longer ones cut, as the EIP
 * says. ecMul is one `msmSync` with `validate: 'on-curve'` (the same as 'full' here); ecAdd one affine
 * addition on bigints (src/reference/curve.ts). ecPairing: 192·k bytes, pairs of a G1 point and a G2
 * point x.c1‖x.c0‖y.c1‖y.c0 (imaginary parts first; all zeros = infinity), each coordinate below p,
 * G1 on its curve, G2 on the twist and in the order-r subgroup (the group's 'full' decoding), then
 * one multi-pairing check (src/msm/pairing.ts) → 32 bytes 0/1; no pairs → 1.
 */
import { bn254, type G1PointInput, type G2PointInput } from '../index.js';
import { groupContextOf } from '../api/group.js';
import { registry } from '../curves/index.js';
import { Pairing } from '../msm/pairing.js';
import type { G1AffineValue } from '../msm/group.js';
import { RefCurve } from '../reference/curve.js';
import { inputError, readBE, readFp, writeBE, type Site } from './bytes.js';
import { addPair, groupCall } from './bls.js';

const W = 32;
const p = bn254.params.p;
const ADD: Site = { name: 'ECADD', p };
const MUL: Site = { name: 'ECMUL', p };
const PAIRING: Site = { name: 'ECPAIRING', p };

/** `input` right-padded with zeros (or cut) to `len` bytes. */
function padded(input: Uint8Array, len: number): Uint8Array {
  if (input.length === len) return input;
  const out = new Uint8Array(len);
  out.set(input.subarray(0, len));
  return out;
}

/** The EIP-196/197 backend (the object `createEvmBackends` returns as `bn254`). */
export class Bn254Precompiles {
  private readonly ref = new RefCurve(bn254.params);
  private pairingEngine: Pairing | undefined;

  private engine(): Pairing {
    // made at the first ecPairing (the curve is initialized by then: createEvmBackends awaited init)
    return (this.pairingEngine ??= new Pairing(groupContextOf<G1AffineValue>(bn254.g1), registry.bn254.g2!.pairing!));
  }

  private point(s: Site, input: Uint8Array, off: number, index: number): G1PointInput {
    const x = readFp(s, input, off, W, 'x', index);
    const y = readFp(s, input, off + W, W, 'y', index);
    return x === 0n && y === 0n ? null : { x, y };
  }
  private out(R: { x: bigint; y: bigint } | null): Uint8Array {
    const out = new Uint8Array(2 * W);
    if (R) {
      writeBE(out, 0, W, R.x);
      writeBE(out, W, W, R.y);
    }
    return out;
  }
  private run(s: Site, points: G1PointInput[], scalars: bigint[]): Uint8Array {
    const R = groupCall(s, 'BN254 G1', () => bn254.g1.msmSync(points, scalars, { validate: 'on-curve' }));
    return this.out(R.infinity ? null : R);
  }

  /** ecAdd (0x06): x1‖y1‖x2‖y2 (128 bytes, zero-padded) → P1 + P2, 64 bytes (one affine addition on bigints: an MSM call costs more). */
  add(input: Uint8Array): Uint8Array {
    const data = padded(input, 4 * W);
    return this.out(addPair(ADD, 'BN254 G1', this.ref, (i) => this.point(ADD, data, 2 * W * i, i) as { x: bigint; y: bigint } | null));
  }

  /** ecMul (0x07): x‖y‖s (96 bytes, zero-padded) → s·P, 64 bytes. */
  mul(input: Uint8Array): Uint8Array {
    const data = padded(input, 3 * W);
    return this.run(MUL, [this.point(MUL, data, 0, 0)], [readBE(data, 2 * W, W)]);
  }

  /** ecPairing (0x08): 192·k bytes → 32 bytes, 1 if ∏ e(P_i, Q_i) = 1 else 0. */
  pairing(input: Uint8Array): Uint8Array {
    if (input.length % (6 * W) !== 0) throw inputError(PAIRING, 'invalid input length', `${input.length} bytes, expected a multiple of 192`);
    const k = input.length / (6 * W);
    const g1: G1PointInput[] = [];
    const g2: G2PointInput[] = [];
    for (let i = 0, off = 0; i < k; i++, off += 6 * W) {
      g1.push(this.point(PAIRING, input, off, i));
      const [x1, x0, y1, y0] = ['x.c1', 'x.c0', 'y.c1', 'y.c0'].map((name, j) => readFp(PAIRING, input, off + (2 + j) * W, W, name, i));
      g2.push(x0 === 0n && x1 === 0n && y0 === 0n && y1 === 0n ? null : { x: [x0, x1], y: [y0, y1] });
    }
    // the groups' decoders check the curves and G2's subgroup (scalars 0: no MSM work)
    const zeros = new Array<bigint>(k).fill(0n);
    groupCall(PAIRING, 'BN254 G1', () => bn254.g1.msmSync(g1, zeros, { validate: 'on-curve' }));
    groupCall(PAIRING, 'BN254 G2 (twist)', () => bn254.g2.msmSync(g2, zeros, { validate: 'full' }));
    const out = new Uint8Array(W);
    out[W - 1] = this.engine().pairingCheck(g1.map((P, i) => [P as { x: bigint; y: bigint } | null, g2[i] as { x: [bigint, bigint]; y: [bigint, bigint] } | null] as const)) ? 1 : 0;
    return out;
  }
}
