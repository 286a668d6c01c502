/**
 * snarkjs's Groth16 proving key (`.zkey`, container version 1), read from bytes.
 *
 * Sections (any order in the file; offsets below are within the payload; G1 = 2·n8q bytes, G2 = 4·n8q,
 * points affine in ffjavascript's Montgomery layout, see curves.ts):
 *   1  header        0: protocol id, u32 (1 = Groth16; 2 = PLONK and 10 = FFLONK are refused)
 *   2  Groth16 header 0: n8q u32 · 4: q (n8q bytes) · 4+n8q: n8r u32 · 8+n8q: r (n8r bytes) ·
 *                    8+n8q+n8r: nVars u32, nPublic u32, domainSize u32 · 20+n8q+n8r: alpha1 G1, beta1 G1,
 *                    beta2 G2, gamma2 G2, delta1 G1, delta2 G2
 *   3  IC            (nPublic + 1) G1
 *   4  coefficients  0: count u32 · 4: count records of 12 + n8r bytes: matrix u32 (0 = A, 1 = B),
 *                    constraint u32, signal u32, value (n8r bytes: v·R² mod r, R = 2^(8·n8r))
 *   5  A             nVars G1          6  B1  nVars G1          7  B2  nVars G2
 *   8  C             (nVars − nPublic − 1) G1 (signals nPublic + 1 …)
 *   9  H             domainSize G1
 *  10  contributions optional (the ceremony's record; not read)
 */
import { FileFormatError } from './errors.js';
import { bigintToLe, checkSectionSet, leToBigint, readContainer, SectionReader, type BinFile } from './binfile.js';
import { curveOfQ, field, firstNonCanonical, type SnarkjsCurve } from './curves.js';

const NAMES: Readonly<Record<number, string>> = { 1: 'header', 2: 'Groth16 header', 3: 'IC', 4: 'coefficients', 5: 'A', 6: 'B1', 7: 'B2', 8: 'C', 9: 'H', 10: 'contributions' };
const OTHER_PROTOCOLS: Readonly<Record<number, string>> = { 2: 'a PLONK key', 10: 'an FFLONK key' };

/**
 * The coefficient section as parallel arrays (record i: `matrix[i]`, `constraint[i]`, `signal[i]`,
 * value at `values[i·n8r … (i+1)·n8r)`). Values are little-endian v·R² mod r (R = 2^256) as stored:
 * one Montgomery multiplication by a standard witness value gives v·w in Montgomery form (what
 * snarkjs's prover does); `coefficientValues` gives them standard or in Montgomery form.
 */
export interface Coefficients {
  readonly count: number;
  /** 0: A, 1: B (C is not stored: C = A·B on the domain) */
  readonly matrix: Uint32Array;
  /** the row, < domainSize */
  readonly constraint: Uint32Array;
  /** the witness index, < nVars */
  readonly signal: Uint32Array;
  /** count × n8r bytes, a packed copy */
  readonly values: Uint8Array;
}

/**
 * A Groth16 proving key. Points are the file's bytes (views of the input, not copies: keep the input
 * unchanged while the key is in use): affine, each coordinate little-endian Montgomery x·R mod q,
 * G2 as x.c0‖x.c1‖y.c0‖y.c1, infinity all zeros — ffjavascript's layout, the one snarkjs hands to
 * `multiExpAffine`. Every coordinate has been checked to be below q (not that points are on the
 * curve: that is the MSM's validation). `pointsToStandard` / `pointAt` (curves.ts) convert.
 */
export interface Groth16Key {
  readonly protocol: 'groth16';
  readonly curve: SnarkjsCurve;
  /** witness length, signal 0 being the constant 1 */
  readonly nVars: number;
  /** public signals (outputs and public inputs, not counting the constant) */
  readonly nPublic: number;
  /** the evaluation domain, a power of two */
  readonly domainSize: number;
  /** log2(domainSize) */
  readonly power: number;
  readonly alpha1: Uint8Array;
  readonly beta1: Uint8Array;
  readonly beta2: Uint8Array;
  readonly gamma2: Uint8Array;
  readonly delta1: Uint8Array;
  readonly delta2: Uint8Array;
  /** nPublic + 1 G1 points (the verification key's IC) */
  readonly IC: Uint8Array;
  readonly coefficients: Coefficients;
  /** nVars G1 points: the MSM bases of pi_a (scalars: the whole witness) */
  readonly A: Uint8Array;
  /** nVars G1 points: of B in G1 (for pi_c) */
  readonly B1: Uint8Array;
  /** nVars G2 points: of pi_b */
  readonly B2: Uint8Array;
  /** nVars − nPublic − 1 G1 points: scalars are the witness from index nPublic + 1 */
  readonly C: Uint8Array;
  /** domainSize G1 points: scalars are the H polynomial's values on the coset */
  readonly H: Uint8Array;
}

/**
 * Reads a Groth16 `.zkey` from its bytes. Every fault is a FileFormatError (its `code`, `section`,
 * `offset`); a PLONK or FFLONK key is `code: 'protocol'`; a curve other than BN254 (`bn128`) and
 * BLS12-381 (`bls12381`) is `code: 'curve'`. Checked beyond the layout: coefficient indices in range
 * (matrix 0 or 1, constraint < domainSize, signal < nVars), values below r, point coordinates below q.
 *
 * Cost: O(file size) byte comparisons (the range checks) plus O(coefficients) to unpack that section;
 * the point sections are not copied.
 */
export function readZkey(bytes: Uint8Array): Groth16Key {
  const file = readContainer(bytes, 'zkey', 1, NAMES);
  const header = reader(file, 1);
  const protocol = header.u32('the protocol id');
  if (protocol !== 1) {
    const name = OTHER_PROTOCOLS[protocol] ?? `unknown protocol id ${protocol}`;
    throw header.fail(`not a Groth16 key: ${name}`, 'protocol', header.section.start);
  }
  header.done();
  checkSectionSet(file, [1, 2, 3, 4, 5, 6, 7, 8, 9], [10], NAMES);

  const h = reader(file, 2);
  const n8q = h.u32('n8q');
  if (n8q !== 32 && n8q !== 48) throw h.fail(`n8q = ${n8q}: no supported curve has a base field of that size`, 'curve', h.pos - 4);
  const q = h.bigint(n8q, 'q');
  const curve = curveOfQ(q);
  if (!curve) throw h.fail(`q = ${q} is the base field of no supported curve (bn128, bls12381)`, 'curve', h.pos - n8q);
  if (n8q !== curve.n8q) throw h.fail(`n8q = ${n8q}, ${curve.name} has ${curve.n8q}`, 'curve', h.section.start);
  const n8r = h.u32('n8r');
  if (n8r !== curve.n8r) throw h.fail(`n8r = ${n8r}, ${curve.name} has ${curve.n8r}`, 'curve', h.pos - 4);
  const r = h.bigint(n8r, 'r');
  if (r !== curve.r) throw h.fail(`r = ${r} is not the scalar field of ${curve.name} (q is its base field)`, 'curve', h.pos - n8r);
  const nVars = h.u32('nVars');
  const nPublic = h.u32('nPublic');
  const domainSize = h.u32('domainSize');
  if (nVars < 1 || nPublic >= nVars) throw h.fail(`nVars = ${nVars}, nPublic = ${nPublic}: need nPublic < nVars`, 'value', h.pos - 12);
  const power = Math.log2(domainSize);
  if (!Number.isInteger(power) || power > curve.twoAdicity) throw h.fail(`domainSize = ${domainSize} is not a power of two up to 2^${curve.twoAdicity}`, 'value', h.pos - 4);
  const G1 = curve.g1Bytes;
  const G2 = curve.g2Bytes;
  const hp = h.pos;
  const [alpha1, beta1, beta2, gamma2, delta1, delta2] = [G1, G1, G2, G2, G1, G2].map((n, i) => h.take(n, ['alpha1', 'beta1', 'beta2', 'gamma2', 'delta1', 'delta2'][i]));
  h.done();
  checkCoordinates(h, curve, hp, 3 * G1 + 3 * G2, 'a header point');

  const points = (type: number, count: number, size: number) => {
    const s = reader(file, type);
    const what = `${count} points of ${size} bytes`;
    s.expectSize(count * size, what);
    checkCoordinates(s, curve, s.pos, count * size, 'a point');
    return s.take(count * size, what);
  };
  const IC = points(3, nPublic + 1, G1);
  const coefficients = readCoefficients(reader(file, 4), curve, nVars, domainSize);
  const A = points(5, nVars, G1);
  const B1 = points(6, nVars, G1);
  const B2 = points(7, nVars, G2);
  const C = points(8, nVars - nPublic - 1, G1);
  const H = points(9, domainSize, G1);
  return { protocol: 'groth16', curve, nVars, nPublic, domainSize, power, alpha1, beta1, beta2, gamma2, delta1, delta2, IC, coefficients, A, B1, B2, C, H };
}

function reader(file: BinFile, type: number): SectionReader {
  const s = file.sections.get(type);
  if (!s) throw new FileFormatError(`${file.kind}: section ${type} (${NAMES[type]}) missing`, 'section-missing', type, -1);
  return new SectionReader(file, s, NAMES);
}

/** Every base-field element in [from, from + bytes) below q, else a `value` error at the element. */
function checkCoordinates(s: SectionReader, curve: SnarkjsCurve, from: number, bytes: number, what: string): void {
  const f = field(curve.q, curve.n8q);
  const bad = firstNonCanonical(f, s.file.bytes, from, bytes / curve.n8q);
  if (bad >= 0) throw s.fail(`${what} has a coordinate not below q (Montgomery form is reduced)`, 'value', from + bad * curve.n8q);
}

/** Whether this host stores typed-array words little-endian (every engine in use does). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The little-endian u32 words of `b` (length a multiple of 4): a view when it can, else a copy. */
function wordsOf(b: Uint8Array): Uint32Array {
  if (LITTLE_ENDIAN && b.byteOffset % 4 === 0) return new Uint32Array(b.buffer, b.byteOffset, b.length / 4);
  if (LITTLE_ENDIAN) return new Uint32Array(b.slice().buffer);
  const dv = new DataView(b.buffer, b.byteOffset, b.length);
  return Uint32Array.from({ length: b.length / 4 }, (_, i) => dv.getUint32(4 * i, true));
}

/** The coefficient section, unpacked (32-bit words at a time). Cost O(count). */
function readCoefficients(s: SectionReader, curve: SnarkjsCurve, nVars: number, domainSize: number): Coefficients {
  const count = s.u32('the coefficient count');
  const rec = 12 + curve.n8r;
  s.expectSize(4 + count * rec, `${count} coefficients of ${rec} bytes and their count`);
  const at = s.pos;
  const raw = s.take(count * rec, 'the coefficients');
  const words = wordsOf(raw); // records are whole words
  const matrix = new Uint32Array(count);
  const constraint = new Uint32Array(count);
  const signal = new Uint32Array(count);
  const values = new Uint8Array(count * curve.n8r);
  const valueWords = new Uint32Array(values.buffer);
  const rw = rec / 4;
  const vw = curve.n8r / 4;
  for (let i = 0, o = 0, d = 0; i < count; i++, o += rw) {
    const m = (matrix[i] = words[o]);
    const c = (constraint[i] = words[o + 1]);
    const g = (signal[i] = words[o + 2]);
    if (m > 1) throw s.fail(`coefficient ${i}: matrix ${m} (0 = A, 1 = B)`, 'value', at + 4 * o);
    if (c >= domainSize) throw s.fail(`coefficient ${i}: constraint ${c} not below domainSize ${domainSize}`, 'value', at + 4 * o + 4);
    if (g >= nVars) throw s.fail(`coefficient ${i}: signal ${g} not below nVars ${nVars}`, 'value', at + 4 * o + 8);
    for (let k = 3; k < 3 + vw; k++) valueWords[d++] = words[o + k];
  }
  // on a big-endian host the words copied above hold the values byte-swapped: copy the bytes instead
  if (!LITTLE_ENDIAN) for (let i = 0; i < count; i++) values.set(raw.subarray(i * rec + 12, (i + 1) * rec), i * curve.n8r);
  const bad = firstNonCanonical(field(curve.r, curve.n8r), values, 0, count);
  if (bad >= 0) throw s.fail(`coefficient ${bad}: value not below r`, 'value', at + bad * rec + 12);
  return { count, matrix, constraint, signal, values };
}

/**
 * The key's coefficient values in another form, as new bytes (count × n8r, little-endian):
 * `'standard'` v, or `'montgomery'` v·R mod r. Cost: one bigint modular multiplication per value.
 */
export function coefficientValues(key: Groth16Key, form: 'standard' | 'montgomery'): Uint8Array {
  const { r, n8r } = key.curve;
  const f = field(r, n8r);
  const k = form === 'standard' ? (f.rInv * f.rInv) % r : f.rInv;
  const { values, count } = key.coefficients;
  const out = new Uint8Array(values.length);
  for (let i = 0; i < count; i++) bigintToLe((leToBigint(values, i * n8r, n8r) * k) % r, out, i * n8r, n8r);
  return out;
}
