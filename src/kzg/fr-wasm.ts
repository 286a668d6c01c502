/**
 * BLS12-381's scalar field F_r for pippin/kzg: src/msm/fr-arrays.ts (FrArrays: arrays, codecs,
 * pointwise ops, batch inverse, dot, FFTs) on c-kzg's roots of unity (7^((r−1)/2^k), not snarkjs's),
 * with FFTs of sizes ≤ 8192 on the tables of 8192, over the memory of an instance (a host gives it,
 * its memory and allocations: pippin/kzg's is the arena, `arenaHost`). What pippin/kzg needs: blob
 * bytes → Montgomery arrays (with the index of an element ≥ r), the FFTs of sizes 128…8192, the blob
 * polynomial's monomial form and coset evaluations, the barycentric pieces, and Montgomery arrays →
 * canonical bytes (big-endian for cells and scalars, little-endian for msm_split_scalars).
 * src/kzg/fr.ts (bigints) is the reference every kernel is tested against.
 *
 * Arrays are pointers to count consecutive elements of EB bytes (36 on the i32 backend, 40 on
 * wide64), Montgomery form, values in [0, 2r). Everything here is synchronous. An FrWasm serves one
 * call: it allocates from its host (pippin/kzg: the instance's arena, released by the caller when the
 * call ends) and reuses its named work arrays and scratch within the call; the twiddle tables may be
 * given (made once, `makeTwiddles`, kept by the caller).
 */
import { FrArrays, arenaHost, fftTableBytes, type FrHost, type FrRoots } from '../msm/fr-arrays.js';
import * as fr from './fr.js';

export { arenaHost, type FrHost };

/** The twiddle tables ω^i and ω^−i, i < 4096 (ω: c-kzg's primitive 8192nd root), at fwd and inv. */
export interface Twiddles {
  fwd: number;
  inv: number;
}

/** log2 of the largest FFT (the extended domain, 8192). */
const LOG_EXT = Math.log2(fr.EXT_DOMAIN);

/** Bytes of the twiddle tables (makeTwiddles' room). */
export function twiddleBytes(EB: number): number {
  return fftTableBytes(EB, LOG_EXT);
}

/** c-kzg's roots: 7^((r−1)/2^k) for the domain of size 2^k (fr.OMEGA for 8192). */
const CKZG_ROOTS: FrRoots = Object.freeze({ name: 'BLS12-381', r: fr.R, generator: 7n, twoAdicity: 32 });

export class FrWasm extends FrArrays {
  constructor(host: FrHost, tables?: Twiddles) {
    super(host, CKZG_ROOTS, { label: 'pippin/kzg', tables: tables && { logN: LOG_EXT, fwd: tables.fwd, inv: tables.inv } });
  }

  // ------------------------------------------------------------------ arrays ↔ bytes

  /**
   * count 32-byte big-endian integers (bytes[offset…]) into Montgomery form at out (count·EB bytes);
   * an integer ≥ r is a ScalarEncodingError naming the lowest such index: `${what} ${index} is not
   * below the scalar field's modulus r`.
   */
  fromBytesBE(out: number, bytes: Uint8Array, count: number, what: string, offset = 0): void {
    this.fromBytes(out, bytes, count, { endian: 'be', what, offset });
  }

  /** As fromBytesBE, the integers stored unconverted: the elements x·R⁻¹ (FrArrays.fromBytes `raw`). */
  fromBytesBERaw(out: number, bytes: Uint8Array, count: number, what: string): void {
    this.fromBytes(out, bytes, count, { endian: 'be', what, raw: true });
  }

  /** count elements as 32-byte big-endian canonical encodings, in a new array. */
  toBytesBE(x: number, count: number): Uint8Array {
    return this.toBytes(x, count, 'be');
  }

  /** count elements as 32-byte little-endian canonical encodings at dst + k·stride (in Wasm memory). */
  toBytesLE(dst: number, stride: number, x: number, count: number): void {
    this.toBytesAt(dst, stride, x, count, 'le');
  }

  // ------------------------------------------------------------------ FFTs of sizes ≤ 8192

  /** Writes the twiddle tables at `at` (twiddleBytes: 8194 elements): two runs of fr_powers. */
  makeTwiddles(at: number): Twiddles {
    const { fwd, inv } = this.makeFftTables(at, LOG_EXT);
    return { fwd, inv };
  }

  /**
   * In-place radix-2 FFT of size n (a power of two ≤ 8192) on ω^(8192/n), as fr.fftDit (`dif`
   * false: bit-reversed in, natural out) or fr.fftDif (`dif` true: natural in, bit-reversed out);
   * `inverse`: the inverse roots, without the 1/n. The tables made (or given) are those of 8192.
   */
  override fft(a: number, n: number, opts: { dif: boolean; inverse?: boolean }): void {
    if (!(Number.isInteger(Math.log2(n)) && n >= 1 && n <= fr.EXT_DOMAIN)) throw new RangeError(`fr-wasm: FFT size ${n} is not a power of two ≤ ${fr.EXT_DOMAIN}`);
    this.fftTables(LOG_EXT);
    super.fft(a, n, opts);
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
    this.k.fr_vec_mul(out, coeffs, this.fftTables(LOG_EXT).fwd, n);
    this.fft(out, n, { dif: true });
  }
}
