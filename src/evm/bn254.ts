/**
 * EIP-196's ecAdd (0x06) and ecMul (0x07) on pippin's bn254 instance, with ethereumjs's
 * EVMBN254Interface shape; ecPairing (0x08, EIP-197) needs a BN254 pairing, which pippin does not
 * have yet: it is delegated to the `pairing` function given to createEvmBackends, if any.
 *
 * Inputs: 32-byte big-endian coordinates below p ((0, 0) is infinity; other points must be on
 * y² = x³ + 3, whose points all lie in the order-r group: cofactor 1), 32-byte scalars (any value,
 * reduced mod r). Shorter inputs are read as if right-padded with zeros, longer ones cut, as the EIP
 * says. ecMul is one `msmSync` with `validate: 'on-curve'` (the same as 'full' here); ecAdd one affine
 * addition on bigints (src/reference/curve.ts).
 */
import { bn254, type G1PointInput } from '../index.js';
import { PrecompileInputError } from '../errors.js';
import { RefCurve } from '../reference/curve.js';
import { inputError, readBE, readFp, writeBE, type Site } from './bytes.js';
import { groupCall } from './bls.js';

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
  constructor(private readonly pairingFallback?: (input: Uint8Array) => Uint8Array) {}

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
    const [P, Q] = [0, 1].map((i) => {
      const pt = this.point(ADD, data, 2 * W * i, i) as { x: bigint; y: bigint } | null;
      if (!this.ref.isOnCurve(pt)) throw inputError(ADD, 'point not on curve', `point ${i} is neither on the curve nor (0, 0)`, i);
      return pt;
    });
    return this.out(this.ref.add(P!, Q!));
  }

  /** ecMul (0x07): x‖y‖s (96 bytes, zero-padded) → s·P, 64 bytes. */
  mul(input: Uint8Array): Uint8Array {
    const data = padded(input, 3 * W);
    return this.run(MUL, [this.point(MUL, data, 0, 0)], [readBE(data, 2 * W, W)]);
  }

  /** ecPairing (0x08): 192·k bytes → 32 bytes 0/1; delegated (see the module comment). */
  pairing(input: Uint8Array): Uint8Array {
    if (input.length % (6 * W) !== 0) throw inputError(PAIRING, 'invalid input length', `${input.length} bytes, expected a multiple of 192`);
    if (!this.pairingFallback) {
      throw new PrecompileInputError('ECPAIRING: pippin has no BN254 pairing yet; pass createEvmBackends({ bn254Pairing }) to delegate it', PAIRING.name, 'not implemented');
    }
    return this.pairingFallback(input);
  }
}
