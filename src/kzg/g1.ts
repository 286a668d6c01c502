/**
 * The G1 side of Blob KZG that pippin's MSM API does not cover, on a private instance of the
 * generated BLS12-381 module (src/wasm-generated/bls12_381.ts) driven from JavaScript: decoding and
 * encoding, batched scalar multiplications by fixed scalars (the twiddles of G1 FFTs), radix-2 G1
 * FFTs of size 128, and FK20's 128 small fixed-base MSMs with their tables.
 *
 * Every group operation is an affine addition inside one call of the kernel g1_batch_add (one
 * field inversion per call, Montgomery's trick; ≈ 6 field products per pair), so the code below
 * arranges the work as rounds of independent additions. The kernel needs finite operands: the
 * point at infinity is tracked here, one flag per point, and never reaches it (an infinite
 * operand makes the addition a copy; a sum P + (−P) comes back flagged and clears its point).
 *
 * Point layouts (EB = bytes of a field element, 52 on the i32 backend, 48 on wide64):
 * - a point: x ‖ y (2·EB bytes), Montgomery form.
 * - a triple: βx ‖ x ‖ y (3·EB): the point P at +EB and φ(P) = (βx, y) = λ·P at +0 with its y two
 *   elements on (g1_batch_add's "bit 1" operand), λ = z² − 1 the GLV eigenvalue.
 */
import * as module381 from '../wasm-generated/bls12_381.js';
import { instantiateGenerated, type Instance } from '../runtime/instance.js';
import { batchAddScratchBytes, INFO_INFINITY } from '../abi/layout.js';
import { MALFORMED, NO_ERROR, PointError, decodeStatus } from '../abi/codes.js';
import { NotInSubgroupError, NotOnCurveError, PointEncodingError } from '../errors.js';
import { R } from './fr.js';
import { groupContext, type GroupContext } from '../msm/group.js';
import { bls12_381Curve } from '../curves/bls12-381.js';

/** BLS12-381's field prime, GLV constants (src/curves/bls12-381.ts): φ(x, y) = (β·x, y) = λ·(x, y). */
const P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const BETA = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaacn;
const LAMBDA = 0xac45a4010001a40200000000ffffffffn;
const Z2 = LAMBDA + 1n;

export const FORMAT_ZCASH = 0;
export const FORMAT_COMPRESSED = 1;
export const CHECK = { parse: 0, onCurve: 1, subgroup: 2 } as const;

/** Points with infinity flags: point i at base + i·stride. */
export interface Points {
  base: number;
  stride: number;
  inf: Uint8Array;
}

/**
 * A scalar prepared for `mulBatch`: k ≡ k1 + k2·λ (mod r), each half in width-5 NAF (digits 0 or
 * odd in −15…15, at most one non-zero in any 5 consecutive), most significant first, both halves
 * the same length (≤ 130 digits: |k_i| < 2^129).
 */
export interface GlvNaf {
  d1: Int8Array;
  d2: Int8Array;
}

/** wNAF width of the twiddle multiplications: a table of 8 odd multiples, a non-zero digit every 6 bits on average. */
const NAF_WIDTH = 5;


/** dst ← a + (±b), each a point of a Points array by index. */
export interface AddOp {
  dst: [Points, number];
  a: [Points, number];
  b: [Points, number];
  neg: boolean;
}

/** Babai rounding on the lattice {(a, b): a + b·λ ≡ 0} with basis (λ, −1), (1, z²) (determinant r). */
export function glvSplit(k: bigint): [bigint, bigint] {
  k %= R;
  const round = (num: bigint) => (2n * num + R) / (2n * R);
  const c1 = round(k * Z2);
  const c2 = round(k);
  return [k - c1 * LAMBDA - c2, c1 - c2 * Z2];
}

/** k's width-5 NAF, least significant digit first (k may be negative: every digit negated). */
function naf(k: bigint): number[] {
  const sign = k < 0n ? -1 : 1;
  if (k < 0n) k = -k;
  const out: number[] = [];
  const full = 1n << BigInt(NAF_WIDTH);
  while (k > 0n) {
    let d = 0;
    if (k & 1n) {
      d = Number(k & (full - 1n));
      if (d >= 1 << (NAF_WIDTH - 1)) d -= 1 << NAF_WIDTH;
      k -= BigInt(d);
    }
    out.push(sign * d);
    k >>= 1n;
  }
  return out;
}

export function glvNaf(k: bigint): GlvNaf {
  const [n1, n2] = glvSplit(k).map(naf);
  const len = Math.max(n1.length, n2.length);
  const msbFirst = (n: number[]) => Int8Array.from({ length: len }, (_, i) => n[len - 1 - i] ?? 0);
  return { d1: msbFirst(n1), d2: msbFirst(n2) };
}

export class G1Engine {
  readonly k: Instance['k'];
  readonly EB: number;
  readonly PB: number;
  private u8: Uint8Array;
  private i32: Int32Array;
  private betaMont: number;
  private encodeScratch: number;
  private decodeScratch: number;
  private pairs = 0;
  private pairCap = 0;
  private batchScratch = 0;
  private n = 0;

  private constructor(
    readonly inst: Instance,
    /** the module's fixed scratch sizes (per backend) */
    readonly scratchBytes: Readonly<Record<string, number>>,
  ) {
    this.k = inst.k;
    const fp = Object.values(inst.fields)[0].info;
    this.EB = fp.elementBytes;
    this.PB = 2 * this.EB;
    this.u8 = new Uint8Array(inst.memory.buffer);
    this.i32 = new Int32Array(inst.memory.buffer);
    this.decodeScratch = this.alloc(Math.max(scratchBytes.g1_decode_batch, 2048) * 2);
    this.encodeScratch = this.alloc(4096);
    this.betaMont = this.alloc(this.EB);
    this.setField(this.betaMont, BETA);
  }

  /**
   * A private instance of the module of `backend` ('wide64' or 'i32'); `shared`: on a shared memory
   * where the environment allows one, so pippin's worker pool can run its kernels too.
   */
  static async create(backend: 'wide64' | 'i32', shared = false): Promise<G1Engine> {
    const mod = backend === 'wide64' && module381.wide64 ? module381.wide64 : module381;
    return new G1Engine(await instantiateGenerated(mod as Parameters<typeof instantiateGenerated>[0], { shared: shared ? 'auto' : false }), mod.scratchBytes);
  }

  /** G1 of this instance as pippin's MSM programs see it (for their tile driver, src/msm/tiles.ts). */
  groupContext(): GroupContext {
    const { params, tuning } = bls12_381Curve;
    return groupContext('g1', { inst: this.inst, scratchBytes: this.scratchBytes, windowTable: tuning.msmWindow.table, cofactor: params.h1 });
  }

  /** Memory views (refreshed by `refresh` after every allocation: only allocations grow the memory). */
  get mem(): Uint8Array {
    return this.u8;
  }

  /** New views after the memory grew. */
  refresh(): void {
    if (this.u8.buffer !== this.inst.memory.buffer) {
      this.u8 = new Uint8Array(this.inst.memory.buffer);
      this.i32 = new Int32Array(this.inst.memory.buffer);
    }
  }

  /** Temporary memory above `mark` (release with `release`). */
  allocTemp(bytes: number): number {
    const at = this.inst.arena.alloc(Math.max(16, bytes), 16);
    this.refresh();
    return at;
  }

  /** Permanent memory (the engine lives as long as its Kzg). */
  alloc(bytes: number): number {
    return this.allocTemp(bytes);
  }

  points(count: number, stride = this.PB): Points {
    return { base: this.alloc(count * stride), stride, inf: new Uint8Array(count).fill(1) };
  }

  /** An F_p element (canonical bigint) into Montgomery form at `at`. */
  setField(at: number, v: bigint): void {
    const bytes = new Uint8Array(48);
    for (let i = 0; i < 48; i++) bytes[i] = Number((v >> BigInt(8 * i)) & 0xffn);
    const tmp = this.decodeScratch;
    this.mem.set(bytes, tmp);
    if (!this.k.fp_from_bytes_le(at, tmp)) throw new Error('g1: field element out of range');
  }

  /**
   * Decodes `count` encodings (format 0: 96-byte uncompressed, 1: 48-byte compressed) into `dst`
   * points 0…count−1 (stride PB) with the check level; throws the typed error of the first bad one
   * with its index (+ indexBase) and `what` in the message.
   */
  decode(bytes: Uint8Array, count: number, format: number, check: number, dst: Points, what: string, indexBase = 0): void {
    const size = format === FORMAT_COMPRESSED ? 48 : 96;
    const CHUNK = 256;
    const mark = this.inst.arena.mark();
    const src = this.allocTemp(CHUNK * size);
    const inf = this.allocTemp(CHUNK);
    try {
      for (let start = 0; start < count; start += CHUNK) {
        const c = Math.min(CHUNK, count - start);
        this.mem.set(bytes.subarray(start * size, (start + c) * size), src);
        const status = this.k.g1_decode_batch(dst.base + start * dst.stride, inf, src, c, format, check, this.decodeScratch);
        if (status !== NO_ERROR) {
          const { index, code } = decodeStatus(status);
          const at = indexBase + start + index;
          if (code === PointError.notOnCurve) throw new NotOnCurveError(`${what} ${at} is not on the curve`, at);
          if (code === PointError.notInSubgroup) throw new NotInSubgroupError(`${what} ${at} is not in the G1 subgroup`, at);
          throw new PointEncodingError(`${what} ${at}: ${MALFORMED[code] ?? 'malformed'}`, at);
        }
        dst.inf.set(this.mem.subarray(inf, inf + c), start);
      }
    } finally {
      this.inst.arena.release(mark);
    }
  }

  /** The 48-byte compressed encoding of point i of `pts`. */
  encodeCompressed(pts: Points, i: number): Uint8Array {
    const dst = this.encodeScratch;
    this.k.g1_encode(dst, pts.base + i * pts.stride, pts.inf[i], FORMAT_COMPRESSED, dst + 64);
    return this.mem.slice(dst, dst + 48);
  }

  /** 96-byte uncompressed encoding of point i (the shipped FK20 columns' format). */
  encodeUncompressed(pts: Points, i: number): Uint8Array {
    const dst = this.encodeScratch;
    this.k.g1_encode(dst, pts.base + i * pts.stride, pts.inf[i], FORMAT_ZCASH, dst + 128);
    return this.mem.slice(dst, dst + 96);
  }

  // ------------------------------------------------------------------ batched additions

  private ensurePairs(count: number): void {
    if (count <= this.pairCap) return;
    // permanent: capacities only grow, to the largest batch (FK20's bucket rounds: 16 384)
    this.pairCap = Math.max(count, 2 * this.pairCap, 256);
    this.pairs = this.alloc(16 * this.pairCap);
    this.batchScratch = this.alloc(batchAddScratchBytes(this.pairCap, this.EB));
  }

  /** Starts a batch of at most `max` additions. */
  begin(max: number): void {
    this.ensurePairs(max);
    this.n = 0;
  }

  /** Queues dst ← a + (±b) for finite a, b (b tagged: bit 0 negate, bit 1 triple's φ slot). */
  push(dst: number, a: number, bTagged: number): void {
    const w = this.i32;
    const e = (this.pairs >> 2) + 4 * this.n++;
    w[e] = dst;
    w[e + 1] = a;
    w[e + 2] = bTagged;
    w[e + 3] = 0;
  }

  /** Runs the queued additions; returns their count (then `wasInfinity(i)` per entry). */
  run(): number {
    if (this.n > 0) this.k.g1_batch_add(this.pairs, this.n, this.batchScratch);
    return this.n;
  }

  wasInfinity(i: number): boolean {
    return (this.i32[(this.pairs >> 2) + 4 * i + 3] & INFO_INFINITY) !== 0;
  }

  /** dst ← ±src as a point (src tagged like b). */
  copyPoint(dst: number, srcTagged: number): void {
    const mem = this.mem;
    const src = srcTagged & ~3;
    if (srcTagged & 2) {
      mem.copyWithin(dst, src, src + this.EB);
      mem.copyWithin(dst + this.EB, src + 2 * this.EB, src + 3 * this.EB);
    } else mem.copyWithin(dst, src, src + this.PB);
    if (srcTagged & 1) this.k.fp_neg(dst + this.EB, dst + this.EB);
  }

  /** The φ slot of a triple at t: β·x from the x at t + EB. */
  fillBeta(t: number): void {
    this.k.fp_mul(t, this.betaMont, t + this.EB);
  }

  /**
   * In place, pts[idx[i]] ← s_i·pts[idx[i]] for the scalars `glv[i]`, all at once: a table of the
   * odd multiples 1, 3, …, 15 of each point (and their φ images, one product each), then each
   * point's own sequence of steps — from the top digit, a doubling per digit position and an
   * addition per non-zero digit of either half — run as rounds: round t does every point's t-th
   * step, so rounds stay as wide as the point count (one inversion each).
   * Cost per point: 8 table additions + ≈ 128 doublings + ≈ 2·129/6 additions (wNAF density).
   */
  mulBatch(pts: Points, idx: readonly number[], glv: readonly GlvNaf[]): void {
    const live: number[] = [];
    for (let i = 0; i < idx.length; i++) if (!pts.inf[idx[i]]) live.push(i);
    const m = live.length;
    if (m === 0) return;
    const { EB, PB } = this;
    const T = 3 * EB;
    const ODD = 1 << (NAF_WIDTH - 2);
    const mark = this.inst.arena.mark();
    try {
      const table = this.allocTemp(m * ODD * T);
      const acc = this.allocTemp(m * PB);
      const twice = this.allocTemp(m * PB);
      const accInf = new Uint8Array(m).fill(1);
      /** the triple of (2j + 1)·P_i */
      const entry = (i: number, j: number) => table + (i * ODD + j) * T;
      for (let i = 0; i < m; i++) this.copyPoint(entry(i, 0) + EB, pts.base + idx[live[i]] * pts.stride);
      this.begin(m);
      for (let i = 0; i < m; i++) this.push(twice + i * PB, entry(i, 0) + EB, entry(i, 0) + EB);
      this.run();
      for (let j = 1; j < ODD; j++) {
        this.begin(m);
        for (let i = 0; i < m; i++) this.push(entry(i, j) + EB, entry(i, j - 1) + EB, twice + i * PB);
        this.run();
      }
      for (let i = 0; i < m; i++) for (let j = 0; j < ODD; j++) this.fillBeta(entry(i, j));
      // steps: 0 = double, else a tagged table operand to add
      const steps = live.map((l, i) => {
        const { d1, d2 } = glv[l];
        const out: number[] = [];
        for (let p = 0; p < d1.length; p++) {
          if (out.length > 0) out.push(0);
          for (const [d, phi] of [[d1[p], 0], [d2[p], 2]] as const) {
            if (d === 0) continue;
            const e = entry(i, (Math.abs(d) - 1) >> 1);
            out.push((phi ? e | 2 : e + EB) | (d < 0 ? 1 : 0));
          }
        }
        return out;
      });
      const rounds = Math.max(...steps.map((s) => s.length));
      const who = new Int32Array(m);
      for (let t = 0; t < rounds; t++) {
        this.begin(m);
        let n = 0;
        for (let i = 0; i < m; i++) {
          const step = steps[i][t];
          if (step === undefined) continue;
          const a = acc + i * PB;
          if (step === 0) {
            if (accInf[i]) continue; // 2·O = O
            this.push(a, a, a);
          } else if (accInf[i]) {
            this.copyPoint(a, step);
            accInf[i] = 0;
            continue;
          } else this.push(a, a, step);
          who[n++] = i;
        }
        this.run();
        for (let j = 0; j < n; j++) if (this.wasInfinity(j)) accInf[who[j]] = 1;
      }
      const mem = this.mem;
      for (let i = 0; i < m; i++) {
        const at = idx[live[i]];
        pts.inf[at] = accInf[i];
        if (!accInf[i]) mem.copyWithin(pts.base + at * pts.stride, acc + i * PB, acc + (i + 1) * PB);
      }
    } finally {
      this.inst.arena.release(mark);
    }
  }

  /**
   * Rounds of additions dst_i ← a_i + s_i·b_i over flagged points (all six may name distinct
   * slots; a dst must not be another entry's operand): infinite operands become copies, sums
   * flagged by the kernel clear their dst.
   */
  addRound(ops: readonly AddOp[]): void {
    this.begin(ops.length);
    const who: number[] = [];
    for (let i = 0; i < ops.length; i++) {
      const { dst, a, b, neg } = ops[i];
      const addr = (p: [Points, number]) => p[0].base + p[1] * p[0].stride;
      const aInf = a[0].inf[a[1]];
      const bInf = b[0].inf[b[1]];
      if (aInf && bInf) dst[0].inf[dst[1]] = 1;
      else if (bInf) {
        if (addr(dst) !== addr(a)) this.copyPoint(addr(dst), addr(a));
        dst[0].inf[dst[1]] = 0;
      } else if (aInf) {
        this.copyPoint(addr(dst), addr(b) | (neg ? 1 : 0));
        dst[0].inf[dst[1]] = 0;
      } else {
        this.push(addr(dst), addr(a), addr(b) | (neg ? 1 : 0));
        who.push(i);
      }
    }
    const n = this.run();
    for (let j = 0; j < n; j++) {
      const { dst } = ops[who[j]];
      dst[0].inf[dst[1]] = this.wasInfinity(j) ? 1 : 0;
    }
  }
}
