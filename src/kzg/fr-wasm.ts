/**
 * BLS12-381's scalar field F_r on the Wasm kernels of the generated module (fr_* element kernels
 * from the field generator, array kernels from src/codegen/fr-vector.ts), over the memory of an
 * instance (a host gives it, its memory and allocations: pippin/kzg's is the arena, `arenaHost`). What pippin/kzg needs: blob bytes → Montgomery arrays (with the index of an element
 * ≥ r), the FFTs of sizes 128…8192 on c-kzg's roots of unity, the blob polynomial's monomial form
 * and coset evaluations, the barycentric pieces (batch inverse, products, inner product), and
 * Montgomery arrays → canonical bytes (big-endian for cells and scalars, little-endian for
 * msm_split_scalars). src/kzg/fr.ts (bigints) is the reference every kernel is tested against.
 *
 * Arrays are pointers to count consecutive elements of EB bytes (36 on the i32 backend, 40 on
 * wide64), Montgomery form, values in [0, 2r). Everything here is synchronous. An FrWasm serves one
 * call: it allocates from its host (pippin/kzg: the instance's arena, released by the caller when the
 * call ends) and reuses its named work arrays and scratch within the call; the twiddle tables may be
 * given (made once, `makeTwiddles`, kept by the caller).
 */
import type { Instance } from '../runtime/instance.js';
import type { ScalarFieldKernels } from '../wasm-generated/kernels.js';
import { ScalarEncodingError } from '../errors.js';
import * as fr from './fr.js';

/** What FrWasm needs of its host: the instance, fresh memory views, allocations that last as long as the FrWasm is used. */
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

/** The twiddle tables ω^i and ω^−i, i < 4096 (ω: c-kzg's primitive 8192nd root), at fwd and inv. */
export interface Twiddles {
  fwd: number;
  inv: number;
}

/** Bytes of the twiddle tables (makeTwiddles' room). */
export function twiddleBytes(EB: number): number {
  return (fr.EXT_DOMAIN + 2) * EB;
}

/** Bytes of one canonical encoding. */
const FB = 32;

export class FrWasm {
  readonly k: ScalarFieldKernels;
  /** bytes of one element in memory */
  readonly EB: number;
  /** 32 bytes for single conversions */
  private readonly io: number;
  /** ω^i and ω^−i for i < 4096 (ω: c-kzg's primitive 8192nd root): twiddles of every FFT size ≤ 8192 */
  private tables?: Twiddles;
  private held = 0;

  constructor(
    readonly host: FrHost,
    tables?: Twiddles,
  ) {
    this.tables = tables;
    const k = host.inst.k as unknown as Partial<ScalarFieldKernels>;
    const field = host.inst.fields.fr;
    if (typeof k.fr_fft !== 'function' || field === undefined) throw new Error('pippin/kzg: this module has no F_r kernels (fr_*)');
    if (field.info.p !== fr.R) throw new Error('pippin/kzg: the module\'s F_r is not BLS12-381\'s');
    this.k = k as ScalarFieldKernels;
    this.EB = field.info.elementBytes;
    this.io = this.take(FB);
  }

  /** Wasm memory taken so far (work arrays, tables, scratch), bytes. */
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

  private readonly regions = new Map<string, { at: number; bytes: number }>();
  /**
   * A region of at least `bytes` bytes, by name (one per name; a larger request takes a new one, at
   * least twice the old size).
   */
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

  /** Scratch of fr_fft, fr_dot, fr_batch_inv. */
  private scratch(bytes: number): number {
    return this.region('scratch', bytes);
  }

  /** The byte buffer of toBytesBE. */
  private byteBuffer(bytes: number): number {
    return this.region('bytes', bytes);
  }

  // ------------------------------------------------------------------ single values

  /** v (0 ≤ v < r) into Montgomery form at `at`. */
  set(at: number, v: bigint): void {
    if (v < 0n || v >= fr.R) throw new RangeError('fr-wasm: value outside [0, r)');
    fr.toBytesBE(v, this.mem, this.io);
    this.k.fr_from_bytes_be(at, this.io);
  }

  /** The canonical value of the element at `at`. */
  get(at: number): bigint {
    this.k.fr_to_bytes_be(this.io, at);
    return fr.fromBytesBE(this.mem, this.io);
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
   * count 32-byte big-endian integers (bytes[offset…]) into Montgomery form at out (count·EB bytes);
   * an integer ≥ r is a ScalarEncodingError naming the lowest such index: `${what} ${index} is not
   * below the scalar field's modulus r`.
   */
  fromBytesBE(out: number, bytes: Uint8Array, count: number, what: string, offset = 0): void {
    if (bytes.length < offset + count * FB) throw new RangeError('fr-wasm: fewer bytes than elements');
    this.mem.set(bytes.subarray(offset, offset + count * FB), out);
    const bad = this.k.fr_from_bytes_be_batch(out, out, count);
    if (bad >= 0) throw new ScalarEncodingError(`${what} ${bad} is not below the scalar field's modulus r`, bad);
  }

  /** count elements as 32-byte big-endian canonical encodings, in a new array. */
  toBytesBE(x: number, count: number): Uint8Array {
    const dst = this.byteBuffer(count * FB);
    this.k.fr_to_bytes_be_batch(dst, FB, x, count);
    return this.mem.slice(dst, dst + count * FB);
  }

  /** count elements as 32-byte little-endian canonical encodings at dst + k·stride (in Wasm memory). */
  toBytesLE(dst: number, stride: number, x: number, count: number): void {
    this.k.fr_to_bytes_le_batch(dst, stride, x, count);
  }

  // ------------------------------------------------------------------ arithmetic on arrays

  /** out[k] = x[k]⁻¹ (0 ↦ 0). out may equal x. Montgomery's trick: 3 products per element + 1 inversion. */
  batchInv(out: number, x: number, count: number): void {
    this.k.fr_batch_inv(out, x, count, this.scratch((count + 2) * this.EB));
  }

  /** out = Σ x[k]·y[k]. */
  dot(out: number, x: number, y: number, count: number): void {
    this.k.fr_dot(out, x, y, count, this.scratch(2 * this.EB));
  }

  /** The twiddle tables (ω^±i, i < 4096), made once: two runs of fr_powers. */
  private twiddles(): Twiddles {
    this.tables ??= this.makeTwiddles(this.alloc(fr.EXT_DOMAIN + 2));
    return this.tables;
  }

  /** Writes the twiddle tables at `at` (twiddleBytes: 8194 elements): two runs of fr_powers. */
  makeTwiddles(at: number): Twiddles {
    const half = fr.EXT_DOMAIN / 2;
    const fwd = at;
    const inv = this.at(at, half);
    const g = this.at(at, 2 * half);
    this.k.fr_set_one(this.at(g, 1));
    this.set(g, fr.OMEGA);
    this.k.fr_powers(fwd, this.at(g, 1), g, half);
    this.set(g, fr.pow(fr.OMEGA, BigInt(fr.EXT_DOMAIN - 1)));
    this.k.fr_powers(inv, this.at(g, 1), g, half);
    return { fwd, inv };
  }

  /**
   * In-place radix-2 FFT of size n (a power of two ≤ 8192) on ω^(8192/n), as fr.fftDit (`dif`
   * false: bit-reversed in, natural out) or fr.fftDif (`dif` true: natural in, bit-reversed out);
   * `inverse`: the inverse roots, without the 1/n.
   */
  fft(a: number, n: number, opts: { dif: boolean; inverse?: boolean }): void {
    if (!(Number.isInteger(Math.log2(n)) && n >= 1 && n <= fr.EXT_DOMAIN)) throw new RangeError(`fr-wasm: FFT size ${n} is not a power of two ≤ ${fr.EXT_DOMAIN}`);
    const t = this.twiddles();
    this.k.fr_fft(a, n, opts.inverse ? t.inv : t.fwd, fr.EXT_DOMAIN / n, opts.dif ? 1 : 0, this.scratch(this.EB));
  }

  // ------------------------------------------------------------------ the blob polynomial

  /**
   * The monomial coefficients (natural order) of the polynomial whose evaluations at the 4096th
   * roots of unity, bit-reversed, are `evals` (a blob): an inverse FFT (decimation in time) and
   * 1/4096. out may equal evals. Cost: 24 576 − 4095 products + 4096 for 1/n.
   */
  monomial(out: number, evals: number): void {
    const n = fr.EXT_DOMAIN / 2;
    if (out !== evals) this.mem.copyWithin(out, evals, evals + n * this.EB);
    this.fft(out, n, { dif: false, inverse: true });
    this.scale(out, out, fr.inv(BigInt(n)), n);
  }

  /**
   * The evaluations at the odd powers of ω — the coset ω·H₄₀₉₆ — of the polynomial with monomial
   * coefficients `coeffs`, in bit-reversed order (cells 64…127): coeffs[k]·ω^k, then a
   * 4096-point FFT by decimation in frequency. out may equal coeffs.
   */
  coset(out: number, coeffs: number): void {
    const n = fr.EXT_DOMAIN / 2;
    this.k.fr_vec_mul(out, coeffs, this.twiddles().fwd, n);
    this.fft(out, n, { dif: true });
  }

  /** out[k] = x[k]·s for a constant s < r (out may equal x). */
  scale(out: number, x: number, s: bigint, count: number): void {
    const sAt = this.scratch(this.EB);
    this.set(sAt, s);
    this.k.fr_vec_scale(out, x, sAt, count);
  }
}
