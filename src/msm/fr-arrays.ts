/**
 * Arrays over a curve's scalar field F_r on the Wasm kernels of its module (fr_* element kernels from
 * the field generator, array kernels from src/codegen/fr-vector.ts; shipped where the descriptor sets
 * `frKernels`: BLS12-381, BN254), for any such curve: byte codecs (big- and little-endian, plain or
 * ffjavascript's Montgomery form), pointwise operations, batch inverse, inner product, FFTs of every
 * power-of-two size up to 2^min(s, 25) on the descriptor's roots of unity (`frRoots`), and the coset
 * steps of a Groth16 prover as snarkjs 0.7 takes them (its H: inverse FFT, coefficient k times
 * shift^k, FFT; then A·B − C pointwise).
 *
 * Arrays are pointers to count consecutive elements of EB bytes (the layout's elementBytes: 36 on the
 * i32 backend, 32 or 40 on wide64), Montgomery form, values in [0, 2r). Everything is synchronous and
 * runs on the calling thread. An FrArrays serves one call: it allocates from its host (typically the
 * instance's arena, released by the caller when the call ends: `arenaHost`), reuses its named work
 * arrays, scratch and constants within the call, and makes the FFT twiddle tables when first needed
 * (or takes tables the caller made once with `makeFftTables` and keeps, e.g. in a pinned block).
 *
 * Memory of the FFTs: a table for size 2^m holds ω^i and ω^−i for i < 2^(m−1) (2^m + 2 elements) and
 * serves every smaller size by stride; the coset table of size n (toCoset, groth16H) n elements.
 */
import type { Instance } from '../runtime/instance.js';
import type { ScalarFieldKernels } from '../wasm-generated/kernels.js';
import type { Op } from '../runtime/interpreter.js';
import type { Batch, PhaseProgram } from '../runtime/executor.js';
import type { CurveDescriptor } from '../curves/types.js';
import { batchInverseScratchBytes } from '../abi/layout.js';
import { ScalarEncodingError } from '../errors.js';

/** What FrArrays needs of its host: the instance, fresh memory views, allocations that last as long as the FrArrays is used. */
export interface FrHost {
  readonly inst: Instance;
  /** a view of the whole memory, valid after the host's last allocation */
  readonly mem: Uint8Array;
  /** memory for the rest of the call (16-byte aligned), the views refreshed */
  alloc(bytes: number): number;
}

/** A host on the instance's arena: the caller takes a mark before and releases it after the call. */
export function arenaHost(inst: Instance): FrHost {
  return {
    inst,
    get mem() {
      return new Uint8Array(inst.memory.buffer);
    },
    alloc: (bytes) => inst.arena.alloc(Math.max(16, bytes), 16),
  };
}

/**
 * F_r and the roots of unity of its FFT domains: r − 1 = 2^twoAdicity·t (t odd), g^t a primitive
 * 2^twoAdicity-th root of unity; the domain of size 2^m has the root ω_m = g^(t·2^(twoAdicity − m)).
 */
export interface FrRoots {
  /** for messages, e.g. 'bn254' */
  readonly name: string;
  readonly r: bigint;
  readonly generator: bigint;
  readonly twoAdicity: number;
}

/** Butterflies per piece of groth16HProgram's global layers: 3 × 512 elements (≤ 60 kB) stay in L2 through the piece's four vector passes. */
const LAYER_PIECE = 512;

const rootsOf = new WeakMap<CurveDescriptor, FrRoots>();
/** A curve's F_r roots from its descriptor (`frRoots`, as ffjavascript / snarkjs take them; one frozen object per descriptor). */
export function frRootsOf(curve: CurveDescriptor): FrRoots {
  if (curve.frRoots === undefined) throw new Error(`${curve.name}: the descriptor has no frRoots`);
  let roots = rootsOf.get(curve);
  if (!roots) rootsOf.set(curve, (roots = Object.freeze({ name: curve.name, r: curve.params.r, ...curve.frRoots })));
  return roots;
}

/**
 * The largest FFT size is 2^MAX_LOG_FFT (and 2^twoAdicity): an array of 2^25 elements takes 1.1–1.25
 * GiB (32–40 bytes each) and its tables as much again, over half of Wasm's 4 GiB. groth16H at size n
 * holds 5n elements (A, B, C, the FFT tables, the coset table): 2^24 is the largest that fits.
 */
export const MAX_LOG_FFT = 25;

/** A twiddle table for sizes up to 2^logN: ω^i at fwd and ω^−i at inv, i < 2^(logN−1), ω = ω_logN. */
export interface FftTables {
  readonly logN: number;
  readonly fwd: number;
  readonly inv: number;
}

/** A coset table (makeCosetTable): n elements at `at`. */
export interface CosetTable {
  readonly n: number;
  readonly shift: bigint;
  readonly at: number;
}

/** Bytes of makeFftTables' room for size 2^logN: 2^logN + 2 elements (4 for logN = 0). */
export function fftTableBytes(EB: number, logN: number): number {
  return (2 * 2 ** Math.max(0, logN - 1) + 2) * EB;
}

const pow = (x: bigint, e: bigint, m: bigint): bigint => {
  let acc = 1n;
  x %= m;
  for (; e > 0n; e >>= 1n, x = (x * x) % m) if (e & 1n) acc = (acc * x) % m;
  return acc;
};
const mod = (x: bigint, m: bigint): bigint => ((x % m) + m) % m;

const checked = new WeakMap<FrRoots, bigint>();
/** t (odd, r − 1 = 2^twoAdicity·t) once the roots are checked: twoAdicity right, generator a non-residue. */
function oddPart(roots: FrRoots, label: string): bigint {
  let t = checked.get(roots);
  if (t !== undefined) return t;
  let s = 0;
  for (t = roots.r - 1n; (t & 1n) === 0n; t >>= 1n) s++;
  if (s !== roots.twoAdicity) throw new Error(`${label}: ${roots.name}'s F_r has 2-adicity ${s}, not ${roots.twoAdicity}`);
  if (pow(roots.generator, (roots.r - 1n) / 2n, roots.r) !== roots.r - 1n) throw new Error(`${label}: ${roots.name}'s F_r root generator ${roots.generator} is a square`);
  checked.set(roots, t);
  return t;
}

export class FrArrays {
  readonly k: ScalarFieldKernels;
  /** bytes of one element in memory */
  readonly EB: number;
  /** bytes of one canonical encoding (⌈bits(r)/8⌉: 32 here) */
  readonly B: number;
  readonly r: bigint;
  /** the largest FFT size is 2^maxLogN: min(twoAdicity, MAX_LOG_FFT) */
  readonly maxLogN: number;
  /** odd t with r − 1 = 2^twoAdicity·t */
  private readonly t: bigint;
  /** B bytes for single conversions */
  private readonly io: number;
  private tables?: FftTables;
  private held = 0;
  private readonly regions = new Map<string, { at: number; bytes: number }>();
  private readonly cosets = new Map<string, number>();

  /**
   * `label` prefixes the messages of errors that are not the caller's data (default 'fr-arrays');
   * `tables`: twiddle tables made before (makeFftTables), used for every size they cover; `cosets`:
   * coset tables made before (makeCosetTable), used for their (n, shift).
   */
  constructor(
    readonly host: FrHost,
    readonly roots: FrRoots,
    opts: { tables?: FftTables; cosets?: readonly CosetTable[]; label?: string } = {},
  ) {
    const label = opts.label ?? 'fr-arrays';
    const k = host.inst.k as unknown as Partial<ScalarFieldKernels>;
    const field = host.inst.fields.fr;
    if (typeof k.fr_fft !== 'function' || typeof k.fr_vec_mul_sub !== 'function' || field === undefined) throw new Error(`${label}: this module has no F_r kernels (fr_*)`);
    if (field.info.p !== roots.r) throw new Error(`${label}: the module's F_r is not ${roots.name}'s`);
    const t = oddPart(roots, label);
    this.k = k as ScalarFieldKernels;
    this.EB = field.info.elementBytes;
    this.B = field.info.byteLength;
    this.r = roots.r;
    this.t = t;
    this.maxLogN = Math.min(roots.twoAdicity, MAX_LOG_FFT);
    this.tables = opts.tables;
    for (const t of opts.cosets ?? []) this.cosets.set(`${t.n}:${t.shift}`, t.at);
    this.io = this.take(this.B);
  }

  /** The Montgomery factor R of the module's F_r (2^(n·w) of its limb layout). */
  get montgomeryR(): bigint {
    return this.host.inst.fields.fr!.R;
  }

  /** Wasm memory taken so far (work arrays, tables, scratch, constants), bytes. */
  get bytes(): number {
    return this.held;
  }

  private take(bytes: number): number {
    this.held += bytes;
    return this.host.alloc(bytes);
  }

  get mem(): Uint8Array {
    return this.host.mem;
  }

  /** Room for count elements. */
  alloc(count: number): number {
    return this.take(Math.max(1, count) * this.EB);
  }

  /** Address of element i of the array at base. */
  at(base: number, i: number): number {
    return base + i * this.EB;
  }

  /** A region of at least `bytes` bytes, by name (a larger request takes a new one, at least twice the old size). */
  private region(name: string, bytes: number): number {
    const have = this.regions.get(name);
    if (have && have.bytes >= bytes) return have.at;
    const size = Math.max(bytes, 2 * (have?.bytes ?? 0));
    const at = this.take(size);
    this.regions.set(name, { at, bytes: size });
    return at;
  }

  /** A work array of at least count elements, by name (see `region`). */
  work(name: string, count: number): number {
    return this.region(`work:${name}`, Math.max(1, count) * this.EB);
  }

  /** Scratch of the kernels (fr_fft, fr_bit_reverse, fr_dot, fr_batch_inv, fr_vec_mul_sub). */
  protected scratch(bytes: number): number {
    return this.region('scratch', bytes);
  }

  /** Element i of the constants region (4 elements: scalars of one operation; not the kernels' scratch). */
  private constant(i: number, v: bigint): number {
    const at = this.at(this.region('constants', 4 * this.EB), i);
    this.set(at, v);
    return at;
  }

  // ------------------------------------------------------------------ single values

  /** v (0 ≤ v < r) into Montgomery form at `at`. */
  set(at: number, v: bigint): void {
    if (v < 0n || v >= this.r) throw new RangeError(`${this.roots.name} F_r: value outside [0, r)`);
    const mem = this.mem;
    for (let i = this.B - 1, x = v; i >= 0; i--, x >>= 8n) mem[this.io + i] = Number(x & 0xffn);
    this.k.fr_from_bytes_be(at, this.io);
  }

  /** The canonical value of the element at `at`. */
  get(at: number): bigint {
    this.k.fr_to_bytes_be(this.io, at);
    const mem = this.mem;
    let v = 0n;
    for (let i = 0; i < this.B; i++) v = (v << 8n) | BigInt(mem[this.io + i]);
    return v;
  }

  /** Elements of a bigint array (each in [0, r)). */
  setAll(out: number, values: readonly bigint[]): void {
    for (let i = 0; i < values.length; i++) this.set(this.at(out, i), values[i]);
  }

  getAll(x: number, count: number): bigint[] {
    return Array.from({ length: count }, (_, i) => this.get(this.at(x, i)));
  }

  // ------------------------------------------------------------------ arrays ↔ bytes

  /**
   * count B-byte integers (bytes[offset…], consecutive) into Montgomery form at out (count·EB bytes).
   * `montgomery`: the integers are x·2^(8B) mod r, ffjavascript's Montgomery form (zkey coefficients),
   * and x is taken. `raw` (big-endian only): the integers are stored as they are, unconverted — the
   * elements x·R⁻¹, R = `montgomeryR` — for a function linear in them whose result the caller
   * multiplies by R once. An integer ≥ r is a ScalarEncodingError naming the lowest such index:
   * `${what} ${index} is not below the scalar field's modulus r`. Cost: count conversions (none with
   * `raw`; + count products with `montgomery`).
   */
  fromBytes(out: number, bytes: Uint8Array, count: number, opts: { endian: 'le' | 'be'; what: string; offset?: number; montgomery?: boolean; raw?: boolean }): void {
    const offset = opts.offset ?? 0;
    if (bytes.length < offset + count * this.B) throw new RangeError(`${this.roots.name} F_r: fewer bytes than elements`);
    if (opts.raw && (opts.endian !== 'be' || opts.montgomery)) throw new RangeError(`${this.roots.name} F_r: raw elements are big-endian integers`);
    this.mem.set(bytes.subarray(offset, offset + count * this.B), out);
    const bad = opts.raw ? this.k.fr_from_bytes_be_raw_batch(out, out, count) : opts.endian === 'le' ? this.k.fr_from_bytes_le_batch(out, out, count) : this.k.fr_from_bytes_be_batch(out, out, count);
    if (bad >= 0) throw new ScalarEncodingError(`${opts.what} ${bad} is not below the scalar field's modulus r`, bad);
    if (opts.montgomery) this.scale(out, out, pow(pow(2n, BigInt(8 * this.B), this.r), this.r - 2n, this.r), count);
  }

  /** count elements as canonical B-byte encodings, in a new array. */
  toBytes(x: number, count: number, endian: 'le' | 'be'): Uint8Array {
    const dst = this.region('bytes', count * this.B);
    this.toBytesAt(dst, this.B, x, count, endian);
    return this.mem.slice(dst, dst + count * this.B);
  }

  /** count elements as canonical B-byte encodings at dst + k·stride (in Wasm memory; dst may equal x when B ≤ stride ≤ EB). */
  toBytesAt(dst: number, stride: number, x: number, count: number, endian: 'le' | 'be'): void {
    if (endian === 'le') this.k.fr_to_bytes_le_batch(dst, stride, x, count);
    else this.k.fr_to_bytes_be_batch(dst, stride, x, count);
  }

  // ------------------------------------------------------------------ arithmetic on arrays (out may equal an input)

  /** out[k] = x[k] + y[k]. */
  add(out: number, x: number, y: number, count: number): void {
    this.k.fr_vec_add(out, x, y, count);
  }

  /** out[k] = x[k] − y[k]. */
  sub(out: number, x: number, y: number, count: number): void {
    this.k.fr_vec_sub(out, x, y, count);
  }

  /** out[k] = x[k]·y[k]. */
  mul(out: number, x: number, y: number, count: number): void {
    this.k.fr_vec_mul(out, x, y, count);
  }

  /** out[k] = x[k]·y[k] − z[k]. */
  mulSub(out: number, x: number, y: number, z: number, count: number): void {
    this.k.fr_vec_mul_sub(out, x, y, z, count, this.scratch(this.EB));
  }

  /** out[k] = x[k]·s for a constant s < r. */
  scale(out: number, x: number, s: bigint, count: number): void {
    this.k.fr_vec_scale(out, x, this.constant(0, s), count);
  }

  /** out[k] = x[k] − s for a constant s < r. */
  subScalar(out: number, x: number, s: bigint, count: number): void {
    this.k.fr_vec_sub_scalar(out, x, this.constant(0, s), count);
  }

  /** out[k] = s·g^k for k < count (s, g < r). */
  powers(out: number, s: bigint, g: bigint, count: number): void {
    this.k.fr_powers(out, this.constant(0, s), this.constant(1, g), count);
  }

  /** out[k] = x[k]⁻¹ (0 ↦ 0). Montgomery's trick: 3 products per element + 1 inversion. */
  batchInv(out: number, x: number, count: number): void {
    this.k.fr_batch_inv(out, x, count, this.scratch(batchInverseScratchBytes(count, this.EB)));
  }

  /** out = Σ x[k]·y[k] (one element). */
  dot(out: number, x: number, y: number, count: number): void {
    this.k.fr_dot(out, x, y, count, this.scratch(2 * this.EB));
  }

  /** The n = 2^m elements at a permuted in place: element i to position rev_m(i). */
  bitReverse(a: number, n: number): void {
    this.logSize(n);
    this.k.fr_bit_reverse(a, n, this.scratch(this.EB));
  }

  // ------------------------------------------------------------------ FFTs

  /** log2(n) for a power of two n ≤ 2^maxLogN, else a RangeError. */
  logSize(n: number): number {
    const m = Math.log2(n);
    if (!(Number.isInteger(m) && m >= 0 && m <= this.maxLogN)) throw new RangeError(`${this.roots.name} F_r: FFT size ${n} is not a power of two ≤ 2^${this.maxLogN}`);
    return m;
  }

  /** ω_m, the primitive 2^m-th root of unity of the domain of size 2^m (m ≤ twoAdicity); `inverse`: ω_m⁻¹. */
  root(m: number, inverse = false): bigint {
    if (!(Number.isInteger(m) && m >= 0 && m <= this.roots.twoAdicity)) throw new RangeError(`${this.roots.name} F_r: no 2^${m}-th roots of unity`);
    const w = pow(this.roots.generator, this.t << BigInt(this.roots.twoAdicity - m), this.r);
    return inverse ? pow(w, 2n ** BigInt(m) - 1n, this.r) : w;
  }

  /** Writes the twiddle tables of sizes ≤ 2^logN at `at` (fftTableBytes): two runs of fr_powers, 2^logN products. */
  makeFftTables(at: number, logN: number): FftTables {
    const half = 2 ** Math.max(0, logN - 1);
    const fwd = at;
    const inv = this.at(at, half);
    const g = this.at(at, 2 * half);
    const one = this.at(g, 1);
    this.k.fr_set_one(one);
    this.set(g, this.root(logN));
    this.k.fr_powers(fwd, one, g, half);
    this.set(g, this.root(logN, true));
    this.k.fr_powers(inv, one, g, half);
    return { logN, fwd, inv };
  }

  /** Tables covering size 2^m: the held ones if they do, else new ones for 2^m. */
  fftTables(m: number): FftTables {
    if (this.tables === undefined || this.tables.logN < m) this.tables = this.makeFftTables(this.take(fftTableBytes(this.EB, m)), m);
    return this.tables;
  }

  /**
   * In-place radix-2 FFT of size n = 2^m on ω_m, without a permutation and unscaled (fr_fft):
   * `dif` false: bit-reversed in, natural out; true: natural in, bit-reversed out; `inverse`: on ω_m⁻¹
   * (without the 1/n). Cost: (n/2)·log2(n) butterflies.
   */
  fft(a: number, n: number, opts: { dif: boolean; inverse?: boolean }): void {
    const m = this.logSize(n);
    const t = this.fftTables(m);
    this.k.fr_fft(a, n, opts.inverse ? t.inv : t.fwd, 2 ** (t.logN - m), opts.dif ? 1 : 0, this.scratch(this.EB));
  }

  /** Evaluations: a[j] ← Σ_i a[i]·ω_m^(ij), natural order in and out (a permutation, then the FFT). */
  fftNatural(a: number, n: number): void {
    this.bitReverse(a, n);
    this.fft(a, n, { dif: false });
  }

  /** Coefficients: the inverse of fftNatural (natural order in and out, 1/n included). */
  ifftNatural(a: number, n: number): void {
    this.bitReverse(a, n);
    this.fft(a, n, { dif: false, inverse: true });
    this.scale(a, a, pow(BigInt(n), this.r - 2n, this.r), n);
  }

  // ------------------------------------------------------------------ cosets (Groth16)

  /**
   * The coset shift of snarkjs's Groth16 H for a domain of size 2^m: ω_(m+1) (the evaluations land
   * on the odd powers of ω_(m+1)), or ffjavascript's `Fr.shift` = g² when m = twoAdicity.
   */
  groth16Shift(m: number): bigint {
    return m < this.roots.twoAdicity ? this.root(m + 1) : pow(this.roots.generator, 2n, this.r);
  }

  /** Z(x) = x^n − 1 on the coset shift·⟨ω_m⟩, a constant: shift^n − 1 (−2 for snarkjs's shift). */
  vanishingOnCoset(n: number, shift: bigint): bigint {
    return mod(pow(shift, BigInt(n), this.r) - 1n, this.r);
  }

  /** a[k] ← a[k]·s·g^k for k < count (snarkjs's batchApplyKey): count products and count for the powers. */
  shiftPowers(a: number, count: number, g: bigint, s = 1n): void {
    const p = this.work('powers', count);
    this.powers(p, s, g, count);
    this.mul(a, a, p, count);
  }

  /**
   * Writes the coset table of (n, shift) at `at` (n elements) and keeps it for this FrArrays:
   * shift^rev_m(i)/n at element i, i < n = 2^m, the coefficients' factors in the order the inverse
   * FFT by decimation in frequency leaves them. By doubling: T = [1/n], then T ← T ‖ shift^(2^j)·T
   * for j = m − 1 down to 0 (n products).
   */
  makeCosetTable(at: number, n: number, shift: bigint): CosetTable {
    const m = this.logSize(n);
    this.set(at, pow(BigInt(n), this.r - 2n, this.r));
    for (let j = m - 1, len = 1; j >= 0; j--, len *= 2) this.scale(this.at(at, len), at, pow(shift, 2n ** BigInt(j), this.r), len);
    this.cosets.set(`${n}:${shift}`, at);
    return { n, shift, at };
  }

  /** The coset table of (n, shift): given, made before, or made now (host memory). */
  private cosetTable(n: number, shift: bigint): number {
    const have = this.cosets.get(`${n}:${shift}`);
    if (have !== undefined) return have;
    this.logSize(n);
    return this.makeCosetTable(this.alloc(n), n, shift).at;
  }

  /**
   * Evaluations on the domain → evaluations on its coset: a[j] = P(ω_m^j) in, a[j] = P(shift·ω_m^j)
   * out, natural order, n = 2^m, deg P < n. snarkjs's ifft, coefficient k times shift^k, fft in two
   * FFTs without a permutation: decimation in frequency on ω⁻¹ (coefficients bit-reversed), times the
   * coset table, decimation in time on ω. Cost: n·log2(n) butterflies + n products (+ n for the
   * table, once per call and (n, shift)).
   */
  toCoset(a: number, n: number, shift: bigint): void {
    this.fft(a, n, { dif: true, inverse: true });
    this.mul(a, a, this.cosetTable(n, shift), n);
    this.fft(a, n, { dif: false });
  }

  /**
   * snarkjs's H evaluations for a Groth16 proof: a, b, c hold A, B, C at ω_m^j (natural order, as the
   * constraint rows; n = 2^m the zkey's domain size); on return a[j] = A(x_j)·B(x_j) − C(x_j) at
   * x_j = shift·ω_m^j with shift = groth16Shift(m), and b, c hold B and C there. snarkjs's zkey H
   * points take exactly these values (its joinABC: no division by Z, which is the constant
   * vanishingOnCoset(n, shift) there); `divideByZ` multiplies by Z⁻¹ to give h itself. Cost: 3·toCoset
   * + n products and subtractions (+ n products with divideByZ).
   */
  groth16H(a: number, b: number, c: number, n: number, opts: { divideByZ?: boolean } = {}): void {
    const shift = this.groth16Shift(this.logSize(n));
    for (const x of [a, b, c]) this.toCoset(x, n, shift);
    this.mulSub(a, a, b, c, n);
    if (opts.divideByZ) this.scale(a, a, pow(this.vanishingOnCoset(n, shift), this.r - 2n, this.r), n);
  }

  /**
   * groth16H as a phase program on `threads` thread slots (run by the pool's executor, or runLocal),
   * the same values. Each of A, B, C is cut into P = 2^p blocks (P the largest power of two ≤
   * threads and ≤ n/2): p global layers of the inverse DIF, each as P tasks of n/(2P) butterflies on
   * the vector kernels in pieces of LAYER_PIECE ((u, v) ← (u + v, (u − v)·w) in four in-place passes,
   * no temporary); per block one
   * task: the rest of the inverse DIF (fr_fft of n/P on the stride-P twiddles), the coset table's
   * block, the first log2(n/P) layers of the forward DIT; then p global DIT layers as P tasks each;
   * then A·B − C (× Z⁻¹) in P chunks. Batches: 2p + 2, each of 3P tasks (P for the last). Work as
   * groth16H plus ≈ 3 vector passes per global layer; memory: the coset table and one layer's
   * twiddles (n/2 elements) besides the FFT tables; per slot one scratch element.
   */
  *groth16HProgram(a: number, b: number, c: number, n: number, opts: { threads: number; divideByZ?: boolean }): PhaseProgram<void> {
    const m = this.logSize(n);
    const shift = this.groth16Shift(m);
    const p = Math.min(Math.floor(Math.log2(Math.max(1, opts.threads))), Math.max(0, m - 1));
    const P = 2 ** p;
    const M = n / P;
    const tables = this.fftTables(m);
    const step = 2 ** (tables.logN - m);
    const table = this.cosetTable(n, shift);
    const slots = this.region('slots', Math.max(1, opts.threads) * this.EB);
    const scratch = (slot: number) => this.at(slots, slot);
    const zInv = opts.divideByZ ? this.at(this.region('z', this.EB), 0) : 0;
    if (opts.divideByZ) this.set(zInv, pow(this.vanishingOnCoset(n, shift), this.r - 2n, this.r));
    const polys = [a, b, c];
    const batch = (tasks: ((slot: number) => Op[])[]): Batch => ({ tasks, done: () => {} });
    /** twiddles w^(j·stride) for j < half, contiguous: the table itself (stride 1) or gathered */
    const layerTwiddles = (from: number, stride: number, half: number) => {
      if (stride === 1) return from;
      const tw = this.work('layer twiddles', half);
      this.k.fr_gather(tw, from, stride, half);
      return tw;
    };
    /** one global layer of length L as P tasks per polynomial: butterflies (u at g·L + j, v = u + L/2) */
    const layer = (L: number, tw: number, butterfly: (u: number, v: number, w: number, count: number) => Op[]) => {
      const half = L / 2;
      const C = n / (2 * P);
      const tasks: ((slot: number) => Op[])[] = [];
      for (const x of polys) {
        for (let g = 0; g < n; g += L) {
          for (let j0 = 0; j0 < half; j0 += C) {
            tasks.push(() => {
              // in pieces of LAYER_PIECE butterflies, so that the four passes of a piece stay in cache
              const ops: Op[] = [];
              for (let j = j0; j < j0 + C; j += LAYER_PIECE) {
                const u = this.at(x, g + j);
                ops.push(...butterfly(u, this.at(u, half), this.at(tw, j), Math.min(LAYER_PIECE, j0 + C - j)));
              }
              return ops;
            });
          }
        }
      }
      return batch(tasks);
    };
    // inverse DIF, global layers L = n, n/2, …, 2M: (u, v) ← (u + v, (u − v)·w)
    for (let l = 0; l < p; l++) {
      const L = n >> l;
      yield layer(L, layerTwiddles(tables.inv, step << l, L / 2), (u, v, w, C) => [
        ['fr_vec_sub', v, u, v, C],
        ['fr_vec_add', u, u, u, C],
        ['fr_vec_sub', u, u, v, C],
        ['fr_vec_mul', v, v, w, C],
      ]);
    }
    // per block: the inverse DIF's last layers, the coset factors, the forward DIT's first layers
    const blocks: ((slot: number) => Op[])[] = [];
    for (const x of polys) {
      for (let k = 0; k < P; k++) {
        const at = this.at(x, k * M);
        blocks.push((slot) => [
          ['fr_fft', at, M, tables.inv, step * P, 1, scratch(slot)],
          ['fr_vec_mul', at, at, this.at(table, k * M), M],
          ['fr_fft', at, M, tables.fwd, step * P, 0, scratch(slot)],
        ]);
      }
    }
    yield batch(blocks);
    // forward DIT, global layers L = 2M, …, n: (u, v) ← (u + w·v, u − w·v)
    for (let L = 2 * M; L <= n; L *= 2) {
      yield layer(L, layerTwiddles(tables.fwd, step * (n / L), L / 2), (u, v, w, C) => [
        ['fr_vec_mul', v, v, w, C],
        ['fr_vec_add', u, u, v, C],
        ['fr_vec_add', v, v, v, C],
        ['fr_vec_sub', v, u, v, C],
      ]);
    }
    const join: ((slot: number) => Op[])[] = [];
    for (let k = 0; k < P; k++) {
      const [ak, bk, ck] = [this.at(a, k * M), this.at(b, k * M), this.at(c, k * M)];
      join.push((slot) => [['fr_vec_mul_sub', ak, ak, bk, ck, M, scratch(slot)], ...(opts.divideByZ ? [['fr_vec_scale', ak, ak, zInv, M] as Op] : [])]);
    }
    yield batch(join);
  }
}
