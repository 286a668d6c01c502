/**
 * G1 group work that is not one MSM, driven from JavaScript on the calling thread: decoding and
 * encoding runs of points, rounds of independent affine additions, batched scalar multiplications
 * by known scalars (GLV + wNAF), for the G1 FFTs of src/msm/g1-fft.ts and the row tables of
 * src/msm/fixed-base.ts.
 *
 * Every group operation is an affine addition inside one call of the group's batch-add kernel
 * (g1_batch_add: one field inversion per call, Montgomery's trick; ≈ 6 field products per pair), so
 * the work is arranged as rounds of independent additions. The kernel needs finite operands: the
 * point at infinity is tracked here, one flag per point, and never reaches it (an infinite operand
 * makes the addition a copy; a sum P + (−P) comes back flagged and clears its point).
 *
 * Memory: an AffineBatch allocates from the instance's arena and never releases; its owner takes a
 * mark before making it and releases the mark when done (one call's work, src/runtime/memory.ts).
 *
 * Point layouts (EB = bytes of a field element, 52 on the i32 backend, 48 on wide64):
 * - a point: x ‖ y (2·EB bytes), Montgomery form.
 * - a triple: βx ‖ x ‖ y (3·EB): the point P at +EB and φ(P) = (βx, y) = λ·P at +0 with its y two
 *   elements on (the batch-add kernel's "bit 1" operand).
 */
import { batchAddScratchBytes, INFO_INFINITY } from '../abi/layout.js';
import { MALFORMED, NO_ERROR, PointError, decodeStatus } from '../abi/codes.js';
import { NotInSubgroupError, NotOnCurveError, PointEncodingError } from '../errors.js';
import type { CurveParams } from '../curves/types.js';
import type { G1AffineValue, GroupContext } from './group.js';

/** The encodings the decode and encode kernels take: 0 = 96-byte uncompressed (ZCash), 1 = 48-byte compressed. */
export const FORMAT_ZCASH = 0;
export const FORMAT_COMPRESSED = 1;
/** Checks of g1_decode_batch. */
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
 * the same length.
 */
export interface GlvNaf {
  d1: Int8Array;
  d2: Int8Array;
}

/** The GLV lattice of a curve whose λ satisfies λ² + λ + 1 = r (BLS12: λ = z² − 1). */
export interface Glv {
  r: bigint;
  lambda: bigint;
}

/** wNAF width of the multiplications: a table of 8 odd multiples, a non-zero digit every 6 bits on average. */
const NAF_WIDTH = 5;

/** dst ← a + (±b), each a point of a Points array by index. */
export interface AddOp {
  dst: [Points, number];
  a: [Points, number];
  b: [Points, number];
  neg: boolean;
}

/** Babai rounding on the lattice {(a, b): a + b·λ ≡ 0} with basis (λ, −1), (1, λ + 1) (determinant λ² + λ + 1 = r). */
export function glvSplit(k: bigint, { r, lambda }: Glv): [bigint, bigint] {
  if (lambda * lambda + lambda + 1n !== r) throw new Error('glvSplit: λ² + λ + 1 ≠ r for this curve');
  const z2 = lambda + 1n;
  k %= r;
  const round = (num: bigint) => (2n * num + r) / (2n * r);
  const c1 = round(k * z2);
  const c2 = round(k);
  return [k - c1 * lambda - c2, c1 - c2 * z2];
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

export function glvNaf(k: bigint, glv: Glv): GlvNaf {
  const [n1, n2] = glvSplit(k, glv).map(naf);
  const len = Math.max(n1.length, n2.length);
  const msbFirst = (n: number[]) => Int8Array.from({ length: len }, (_, i) => n[len - 1 - i] ?? 0);
  return { d1: msbFirst(n1), d2: msbFirst(n2) };
}

export class AffineBatch {
  readonly EB: number;
  readonly PB: number;
  private u8!: Uint8Array;
  private i32!: Int32Array;
  private readonly betaMont: number;
  private readonly scratch: number;
  private pairs = 0;
  private pairCap = 0;
  private batchScratch = 0;
  private n = 0;

  /** On G1 of `ctx` (BLS12-type: `params` gives β, λ, r); allocates from the arena at once and on demand. */
  constructor(
    readonly ctx: GroupContext<G1AffineValue>,
    params: Pick<CurveParams, 'beta'>,
  ) {
    this.EB = ctx.EB;
    this.PB = 2 * ctx.EB;
    // decode's scratch; encode writes its output at +0 and takes its scratch from +128
    this.scratch = this.alloc(Math.max(ctx.scratch.decode, 128 + ctx.scratch.encode, 4096));
    this.betaMont = this.alloc(this.EB);
    ctx.inst.fields.fp.write(this.betaMont, params.beta);
  }

  get k(): GroupContext['k'] {
    return this.ctx.k;
  }

  /** A view of the whole memory (refreshed: another call's allocation may have grown it). */
  get mem(): Uint8Array {
    this.refresh();
    return this.u8;
  }

  private refresh(): void {
    const { buffer } = this.ctx.inst.memory;
    if (this.u8?.buffer !== buffer) {
      this.u8 = new Uint8Array(buffer);
      this.i32 = new Int32Array(buffer);
    }
  }

  /** Arena memory (16-byte aligned), the views refreshed. */
  alloc(bytes: number): number {
    const at = this.ctx.inst.arena.alloc(Math.max(16, bytes), 16);
    this.refresh();
    return at;
  }

  /** count points, all at infinity. */
  points(count: number, stride = this.PB): Points {
    return { base: this.alloc(count * stride), stride, inf: new Uint8Array(count).fill(1) };
  }

  /**
   * Decodes `count` encodings (FORMAT_ZCASH or FORMAT_COMPRESSED) into points 0…count−1 of `dst`
   * with the check level; throws the typed error of the first bad one with its index (+ indexBase)
   * and `what` in the message.
   */
  decode(bytes: Uint8Array, count: number, format: number, check: number, dst: Points, what: string, indexBase = 0): void {
    const size = format === FORMAT_COMPRESSED ? 48 : 96;
    const CHUNK = 256;
    const { arena } = this.ctx.inst;
    const mark = arena.mark();
    const src = this.alloc(CHUNK * size);
    const inf = this.alloc(CHUNK);
    try {
      for (let start = 0; start < count; start += CHUNK) {
        const c = Math.min(CHUNK, count - start);
        this.mem.set(bytes.subarray(start * size, (start + c) * size), src);
        const status = this.k.g1_decode_batch(dst.base + start * dst.stride, inf, src, c, format, check, this.scratch);
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
      arena.release(mark);
    }
  }

  /** The encoding (FORMAT_COMPRESSED: 48 bytes, FORMAT_ZCASH: 96) of point i of `pts`, in a new array. */
  encode(pts: Points, i: number, format: number): Uint8Array {
    const dst = this.scratch;
    const size = format === FORMAT_COMPRESSED ? 48 : 96;
    this.k.g1_encode(dst, pts.base + i * pts.stride, pts.inf[i], format, dst + 128);
    return this.mem.slice(dst, dst + size);
  }

  /** Point j of `from` into point i of `to` (flag and coordinates). */
  copy(to: Points, i: number, from: Points, j: number): void {
    to.inf[i] = from.inf[j];
    this.mem.copyWithin(to.base + i * to.stride, from.base + j * from.stride, from.base + j * from.stride + this.PB);
  }

  // ------------------------------------------------------------------ batched additions

  private ensurePairs(count: number): void {
    if (count <= this.pairCap) return;
    this.pairCap = Math.max(count, 2 * this.pairCap, 256);
    this.pairs = this.alloc(16 * this.pairCap);
    this.batchScratch = this.alloc(batchAddScratchBytes(this.pairCap, this.EB));
  }

  /** Starts a batch of at most `max` additions. */
  begin(max: number): void {
    this.ensurePairs(max);
    this.refresh();
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
    this.copyPointIn(this.mem, dst, srcTagged);
  }

  /** copyPoint on a view the caller knows to be current. */
  private copyPointIn(mem: Uint8Array, dst: number, srcTagged: number): void {
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
    const { arena } = this.ctx.inst;
    // the pair buffer must outlive the release below: size it first
    this.ensurePairs(m);
    const mark = arena.mark();
    try {
      const table = this.alloc(m * ODD * T);
      const acc = this.alloc(m * PB);
      const twice = this.alloc(m * PB);
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
      // steps: 0 = double, else a tagged table operand to add; point i's are steps[off[i] … off[i + 1])
      const off = new Int32Array(m + 1);
      for (let i = 0; i < m; i++) {
        const { d1, d2 } = glv[live[i]];
        let count = 0;
        for (let p = 0; p < d1.length; p++) count += (count > 0 ? 1 : 0) + (d1[p] !== 0 ? 1 : 0) + (d2[p] !== 0 ? 1 : 0);
        off[i + 1] = off[i] + count;
      }
      const steps = new Int32Array(off[m]);
      let rounds = 0;
      for (let i = 0; i < m; i++) {
        const { d1, d2 } = glv[live[i]];
        let at = off[i];
        for (let p = 0; p < d1.length; p++) {
          if (at > off[i]) steps[at++] = 0;
          const a = d1[p];
          if (a !== 0) steps[at++] = (entry(i, (Math.abs(a) - 1) >> 1) + EB) | (a < 0 ? 1 : 0);
          const b = d2[p];
          if (b !== 0) steps[at++] = entry(i, (Math.abs(b) - 1) >> 1) | 2 | (b < 0 ? 1 : 0);
        }
        rounds = Math.max(rounds, off[i + 1] - off[i]);
      }
      // one round per step index, on the views of one begin (nothing here allocates): a refresh per
      // round read the shared memory's `buffer`, ≈ 3 µs each on Node 20 (2 000 rounds per cells call)
      this.begin(m);
      const mem = this.u8;
      const who = new Int32Array(m);
      for (let t = 0; t < rounds; t++) {
        this.n = 0;
        let n = 0;
        for (let i = 0; i < m; i++) {
          if (t >= off[i + 1] - off[i]) continue;
          const step = steps[off[i] + t];
          const a = acc + i * PB;
          if (step === 0) {
            if (accInf[i]) continue; // 2·O = O
            this.push(a, a, a);
          } else if (accInf[i]) {
            this.copyPointIn(mem, a, step);
            accInf[i] = 0;
            continue;
          } else this.push(a, a, step);
          who[n++] = i;
        }
        this.run();
        for (let j = 0; j < n; j++) if (this.wasInfinity(j)) accInf[who[j]] = 1;
      }
      for (let i = 0; i < m; i++) {
        const at = idx[live[i]];
        pts.inf[at] = accInf[i];
        if (!accInf[i]) mem.copyWithin(pts.base + at * pts.stride, acc + i * PB, acc + (i + 1) * PB);
      }
    } finally {
      arena.release(mark);
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
