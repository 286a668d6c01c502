/**
 * `pippin/evm`: the elliptic-curve precompiles of the EVM on pippin, as the backends ethereumjs's
 * EVM takes (`createEVM({ bls, bn254 })` of `@ethereumjs/evm`): EIP-2537 (BLS12-381, 0x0b–0x11) and
 * EIP-196/197 (BN254 ecAdd 0x06, ecMul 0x07, ecPairing 0x08). Every method is synchronous, bytes in
 * and bytes out, on the calling thread; an invalid input throws PrecompileInputError (the EVM then
 * burns the call's gas). docs/evm.md has the details and figures.
 *
 * @module pippin/evm
 * @example
 * ```ts
 * import { createEvmBackends } from 'pippin/evm';
 * const { bls } = await createEvmBackends();
 * // BLS12_MAP_FP_TO_G1 of u = 1, then BLS12_G1MSM of (that point, 2)
 * const u = new Uint8Array(64);
 * u[63] = 1;
 * const P = bls.mapFPtoG1(u);
 * const input = new Uint8Array(160);
 * input.set(P);
 * input[159] = 2;
 * console.log(bls.msmG1(input).length); // → 128
 * ```
 */
import { bls12_381, bn254 } from '../index.js';
import { Bls12381Precompiles } from './bls.js';
import { Bn254Precompiles } from './bn254.js';

/**
 * The EIP-2537 backend: the shape of ethereumjs's `EVMBLSInterface` (each method takes the
 * precompile's input bytes and returns its output bytes, or throws PrecompileInputError).
 *
 * @example
 * ```ts
 * import { createEvmBackends, type EvmBlsBackend } from 'pippin/evm';
 * const bls: EvmBlsBackend = (await createEvmBackends()).bls;
 * console.log(bls.addG1(new Uint8Array(256)).every((b) => b === 0)); // → true
 * ```
 */
export interface EvmBlsBackend {
  /** BLS12_G1ADD (0x0b): 256 bytes → 128 */
  addG1(input: Uint8Array): Uint8Array;
  /** BLS12_G2ADD (0x0d): 512 bytes → 256 */
  addG2(input: Uint8Array): Uint8Array;
  /** BLS12_MAP_FP_TO_G1 (0x10): 64 bytes → 128 */
  mapFPtoG1(input: Uint8Array): Uint8Array;
  /** BLS12_MAP_FP2_TO_G2 (0x11): 128 bytes → 256 */
  mapFP2toG2(input: Uint8Array): Uint8Array;
  /** BLS12_G1MSM (0x0c): 160·k bytes → 128 */
  msmG1(input: Uint8Array): Uint8Array;
  /** BLS12_G2MSM (0x0e): 288·k bytes → 256 */
  msmG2(input: Uint8Array): Uint8Array;
  /** BLS12_PAIRING_CHECK (0x0f): 384·k bytes → 32 (0 or 1) */
  pairingCheck(input: Uint8Array): Uint8Array;
}

/**
 * The EIP-196/197 backend: the shape of ethereumjs's `EVMBN254Interface`.
 *
 * @example
 * ```ts
 * import { createEvmBackends, type EvmBn254Backend } from 'pippin/evm';
 * const bn: EvmBn254Backend = (await createEvmBackends()).bn254;
 * const G = new Uint8Array(96); // (1, 2) and the scalar 3
 * G[31] = 1;
 * G[63] = 2;
 * G[95] = 3;
 * console.log(bn.mul(G).length); // → 64
 * ```
 */
export interface EvmBn254Backend {
  /** ecAdd (0x06): 128 bytes (shorter: zero-padded) → 64 */
  add(input: Uint8Array): Uint8Array;
  /** ecMul (0x07): 96 bytes (shorter: zero-padded) → 64 */
  mul(input: Uint8Array): Uint8Array;
  /** ecPairing (0x08): 192·k bytes → 32 (0 or 1) */
  pairing(input: Uint8Array): Uint8Array;
}

/**
 * What `createEvmBackends` returns: the two objects `createEVM({ bls, bn254 })` takes.
 *
 * @example
 * ```ts
 * import { createEvmBackends, type EvmBackends } from 'pippin/evm';
 * const backends: EvmBackends = await createEvmBackends();
 * console.log(Object.keys(backends).join()); // → bls,bn254
 * ```
 */
export interface EvmBackends {
  /** EIP-2537, for `createEVM({ bls })` */
  bls: EvmBlsBackend;
  /** EIP-196/197, for `new EVM({ bn254 })` (ethereumjs 10.1.3's createEVM replaces a given bn254: docs/evm.md) */
  bn254: EvmBn254Backend;
}

/**
 * Initializes pippin's bls12-381 and bn254 curves and returns the two precompile backends, ready for
 * `createEVM({ bls, bn254 })` of `@ethereumjs/evm` (which calls them synchronously).
 *
 * @returns `{ bls, bn254 }`
 * @example
 * ```ts
 * import { createEvmBackends } from 'pippin/evm';
 * const { bls, bn254 } = await createEvmBackends();
 * // BLS12_PAIRING_CHECK of one pair (infinity, infinity): the empty product is 1
 * console.log(bls.pairingCheck(new Uint8Array(384))[31]); // → 1
 * console.log(bn254.add(new Uint8Array(128)).length); // → 64
 * console.log(bn254.pairing(new Uint8Array(0))[31]); // → 1
 * ```
 */
export async function createEvmBackends(): Promise<EvmBackends> {
  await Promise.all([bls12_381.init(), bn254.init()]);
  return { bls: new Bls12381Precompiles(), bn254: new Bn254Precompiles() };
}
