/**
 * snarkjs's / circom's witness file (`.wtns`, container versions 1 and 2), read from bytes.
 *
 * Sections (offsets within the payload):
 *   1  header  0: n8 u32 · 4: prime (n8 bytes; the scalar field r of the curve) · 4+n8: nWitness u32
 *   2  values  nWitness elements of n8 bytes, little-endian, standard form (not Montgomery)
 */
import { FileFormatError } from './errors.js';
import { checkSectionSet, leToBigint, readContainer, SectionReader } from './binfile.js';
import { curveOfR, field, firstNonCanonical, type SnarkjsCurve } from './curves.js';
import type { Groth16Key } from './zkey.js';

const NAMES: Readonly<Record<number, string>> = { 1: 'header', 2: 'values' };

/** A witness: `values` holds nWitness scalars of n8 bytes each (little-endian, standard, below r). */
export interface Witness {
  /** the curve whose scalar field is the witness's prime */
  readonly curve: SnarkjsCurve;
  /** the prime the file states (= curve.r) */
  readonly prime: bigint;
  /** bytes per value (32) */
  readonly n8: number;
  readonly nWitness: number;
  /** nWitness × n8 bytes, a view of the input (not a copy): exactly the MSM scalars snarkjs uses */
  readonly values: Uint8Array;
}

/**
 * Reads a `.wtns` from its bytes. Faults are FileFormatError; a prime of no supported curve is
 * `code: 'curve'`, a value not below the prime `code: 'value'`.
 * Cost: O(nWitness) byte comparisons (the range check), no copy.
 */
export function readWtns(bytes: Uint8Array): Witness {
  const file = readContainer(bytes, 'wtns', 2, NAMES);
  checkSectionSet(file, [1, 2], [], NAMES);
  const h = new SectionReader(file, file.sections.get(1)!, NAMES);
  const n8 = h.u32('n8');
  if (n8 !== 32) throw h.fail(`n8 = ${n8}: no supported curve has a scalar field of that size`, 'curve', h.pos - 4);
  const prime = h.bigint(n8, 'the prime');
  const curve = curveOfR(prime);
  if (!curve) throw h.fail(`prime ${prime} is the scalar field of no supported curve (bn128, bls12381)`, 'curve', h.pos - n8);
  const nWitness = h.u32('nWitness');
  h.done();
  const v = new SectionReader(file, file.sections.get(2)!, NAMES);
  const what = `${nWitness} values of ${n8} bytes`;
  v.expectSize(nWitness * n8, what);
  const values = v.take(nWitness * n8, what);
  const bad = firstNonCanonical(field(prime, n8), values, 0, nWitness);
  if (bad >= 0) throw v.fail(`value ${bad} is not below the prime`, 'value', v.section.start + bad * n8);
  return { curve, prime, n8, nWitness, values };
}

/** Witness value `i` as a bigint. */
export function witnessValue(w: Witness, i: number): bigint {
  if (!Number.isInteger(i) || i < 0 || i >= w.nWitness) throw new RangeError(`witness value ${i} of ${w.nWitness}`);
  return leToBigint(w.values, i * w.n8, w.n8);
}

/**
 * Checks that a witness belongs to a key: the same prime (`code: 'witness-prime'`), nVars values
 * (`code: 'witness-length'`), value 0 equal to 1 (the constant signal every circom witness starts
 * with; `code: 'value'`). Cost O(1).
 */
export function checkWitness(key: Pick<Groth16Key, 'curve' | 'nVars'>, w: Witness): void {
  if (w.prime !== key.curve.r) throw new FileFormatError(`wtns: the witness is over ${w.curve.name}'s scalar field, the key over ${key.curve.name}'s`, 'witness-prime');
  if (w.nWitness !== key.nVars) throw new FileFormatError(`wtns: ${w.nWitness} witness values, the key has ${key.nVars} signals`, 'witness-length');
  if (witnessValue(w, 0) !== 1n) throw new FileFormatError('wtns: witness value 0 (the constant signal) is not 1', 'value', 2);
}
