/**
 * A circuit of any size without circom, for tests and benchmarks of the Groth16 prover at 2^14–2^20
 * constraints (with scripts/groth16-keygen.ts's insecure keys): the square chain
 *
 *   x_{i+1} = x_i · x_i   (i < k),      out = x_k · 1
 *
 * with signals 0 = the constant 1, 1 = out (the one public signal), 2 = x_0 (private input),
 * 3 … k + 2 = x_1 … x_k: k + 1 constraints, k + 3 signals, every witness value a full-size field
 * element. Also writes its witness as a `.wtns` (container version 2, values little-endian standard).
 *
 *   squareChain(curve, constraints, x0) → { r1cs, wtns }
 */
import { bigintToLe } from '../src/snarkjs/groth16/binfile.js';
import type { SnarkjsCurve } from '../src/snarkjs/groth16/curves.js';
import type { R1cs } from './groth16-keygen.js';

/** The square chain with `constraints` constraints (≥ 2) starting from x_0, and its witness file. */
export function squareChain(curve: SnarkjsCurve, constraints: number, x0: bigint): { r1cs: R1cs; wtns: Uint8Array; publicSignals: string[] } {
  if (!Number.isInteger(constraints) || constraints < 2) throw new RangeError(`squareChain: constraints ${constraints} (an integer ≥ 2)`);
  const k = constraints - 1;
  const { r } = curve;
  const xs: bigint[] = [x0 % r];
  for (let i = 0; i < k; i++) xs.push((xs[i] * xs[i]) % r);
  const witness = [1n, xs[k], ...xs];
  const rows: R1cs['constraints'] = [];
  for (let i = 0; i < k; i++) rows.push([[[2 + i, 1n]], [[2 + i, 1n]], [[3 + i, 1n]]]);
  rows.push([[[2 + k, 1n]], [[0, 1n]], [[1, 1n]]]);
  const r1cs: R1cs = { curve, nVars: witness.length, nOutputs: 1, nPubInputs: 0, nConstraints: constraints, constraints: rows };
  return { r1cs, wtns: writeWtns(r, witness), publicSignals: [xs[k].toString(10)] };
}

/** A `.wtns` (version 2: header n8, prime, count; then the values) of `values` (standard form, below `prime`). */
export function writeWtns(prime: bigint, values: readonly bigint[]): Uint8Array {
  const n8 = 32;
  const header = 4 + n8 + 4;
  const body = values.length * n8;
  const out = new Uint8Array(12 + 12 + header + 12 + body);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('wtns'), 0);
  view.setUint32(4, 2, true);
  view.setUint32(8, 2, true);
  let at = 12;
  const section = (type: number, size: number) => {
    view.setUint32(at, type, true);
    view.setBigUint64(at + 4, BigInt(size), true);
    at += 12;
  };
  section(1, header);
  view.setUint32(at, n8, true);
  bigintToLe(prime, out, at + 4, n8);
  view.setUint32(at + 4 + n8, values.length, true);
  at += header;
  section(2, body);
  values.forEach((v, i) => bigintToLe(v, out, at + i * n8, n8));
  return out;
}
