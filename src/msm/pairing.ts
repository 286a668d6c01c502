/**
 * The optimal ate pairing on the curve's own instance (internal; for pippin/kzg's verifiers and the
 * EVM precompiles to come): synchronous, on the calling thread, over the kernels of
 * src/codegen/pairing.ts (`fp12_*`, `pairing_*`), which both backends' modules of a curve with
 * `pairingKernels` carry. It reaches the instance through a group context (G1's: the backend
 * init() chose), as src/msm/affine-batch.ts does.
 *
 * Inputs are affine points as the API returns them (G1: { x, y }, G2: { x: [c0, c1], y: [c0, c1] },
 * canonical coordinates) or null for infinity, which contributes 1. They must be in G1 and G2:
 * callers validate (the group's decoders with 'full'); only the coordinates' range is checked here.
 * Values in GT are F_p¹² elements [[a0, a1, a2], [b0, b1, b2]] (a + b·w, a_j ∈ F_p² as [c0, c1])
 * in the tower of src/reference/pairing.ts; `pairing` returns e(P, Q)³ as @noble/curves does.
 *
 * Memory: each call takes arena memory on the stack and releases it before returning (like msmSync,
 * it may run in the gaps of asynchronous calls on the same instance). A prepared G2 point holds its
 * line table as bytes in JavaScript (≈ 21 KB on BLS12-381), copied into the arena per call; its lines
 * are normalized (the fixed-argument form, 10 F_p² products per line in the loop instead of 13), those
 * of a plain G2 point are not (normalizing costs more than it saves in one loop).
 */
import type { Fp12 } from '../reference/pairing.js';
import { millerSchedule, type PairingParams } from '../curves/g2.js';
import type { PairingKernels } from '../wasm-generated/kernels.js';
import type { G1AffineValue, GroupContext } from './group.js';

export type { Fp12 };
type G1In = { readonly x: bigint; readonly y: bigint } | null;
type G2In = { readonly x: readonly [bigint, bigint]; readonly y: readonly [bigint, bigint] } | null;

/** A G2 point's precomputed Miller-loop lines, for one instance (backend) of one curve. */
export class PreparedG2 {
  /** @internal */
  constructor(
    /** @internal the pairing it was made by (its layout) */
    readonly owner: Pairing,
    /** the line table, as the kernels lay it out; null for infinity */
    readonly table: Uint8Array | null,
  ) {}
}

export class Pairing {
  private readonly k: PairingKernels;
  /** bytes of a base-field element, of F_p¹², of one line table */
  private readonly EB: number;
  private readonly E12: number;
  readonly tableBytes: number;
  private readonly scratchBytes: number;

  constructor(
    readonly ctx: GroupContext<G1AffineValue>,
    params: PairingParams,
  ) {
    this.k = ctx.k as unknown as PairingKernels;
    if (typeof this.k.pairing_miller_loop !== 'function') throw new Error('pippin: this module has no pairing kernels');
    this.EB = ctx.EB;
    this.E12 = 12 * ctx.EB;
    this.tableBytes = millerSchedule(params).length * 6 * ctx.EB;
    const s = ctx.kernelScratch;
    this.scratchBytes = Math.max(s.pairing_prepare_g2!, s.pairing_normalize_lines!, s.pairing_miller_loop!, s.pairing_final_exp!, s.fp12_is_one!, s.fp12_mul!);
  }

  /**
   * Precomputes the lines of Q (null: infinity, a pair with it contributes 1), normalized (pairing_normalize_lines:
   * ≈ 0.1 ms more than the lines alone, each Miller loop with them ≈ 2 µs less per line).
   */
  prepareG2(Q: G2In): PreparedG2 {
    if (Q === null) return new PreparedG2(this, null);
    return this.withMemory((alloc, scratch) => {
      const q = this.writeG2(alloc, Q);
      const lines = alloc(this.tableBytes);
      this.k.pairing_prepare_g2(lines, q, scratch);
      this.k.pairing_normalize_lines(lines, scratch);
      return new PreparedG2(this, new Uint8Array(this.ctx.inst.memory.buffer, lines, this.tableBytes).slice());
    });
  }

  /** ∏ f_{u,Q_i}(P_i): the Miller loop's value before the final exponentiation (1 for no finite pair). */
  millerLoop(pairs: readonly (readonly [G1In, G2In | PreparedG2])[]): Fp12 {
    return this.withMemory((alloc, scratch) => this.readFp12(this.runMillerLoop(pairs, alloc, scratch)));
  }

  /** f^(3(p¹² − 1)/r). */
  finalExp(f: Fp12): Fp12 {
    return this.withMemory((alloc, scratch) => {
      const out = this.writeFp12(alloc, f);
      this.k.pairing_final_exp(out, out, scratch);
      return this.readFp12(out);
    });
  }

  /** e(P, Q)³ (1 when either is infinity). */
  pairing(P: G1In, Q: G2In | PreparedG2): Fp12 {
    return this.withMemory((alloc, scratch) => {
      const out = this.runMillerLoop([[P, Q]], alloc, scratch);
      this.k.pairing_final_exp(out, out, scratch);
      return this.readFp12(out);
    });
  }

  /** Whether ∏ e(P_i, Q_i) = 1: one multi-Miller loop (shared squarings) and one final exponentiation. */
  pairingCheck(pairs: readonly (readonly [G1In, G2In | PreparedG2])[]): boolean {
    return this.withMemory((alloc, scratch) => {
      const out = this.runMillerLoop(pairs, alloc, scratch);
      this.k.pairing_final_exp(out, out, scratch);
      return this.k.fp12_is_one(out, scratch) === 1;
    });
  }

  // ---------------------------------------------------------------- memory
  private withMemory<T>(f: (alloc: (bytes: number) => number, scratch: number) => T): T {
    const { arena } = this.ctx.inst;
    const mark = arena.mark();
    try {
      const alloc = (bytes: number) => arena.alloc(bytes);
      return f(alloc, alloc(this.scratchBytes));
    } finally {
      arena.release(mark);
    }
  }
  private coord(ptr: number, v: bigint): void {
    if (typeof v !== 'bigint' || v < 0n || v >= this.ctx.inst.fields.fp.info.p) throw new RangeError('pairing: a coordinate is not a canonical field element');
    this.ctx.inst.fields.fp.write(ptr, v);
  }
  private writeG2(alloc: (bytes: number) => number, Q: NonNullable<G2In>): number {
    const q = alloc(4 * this.EB);
    [Q.x[0], Q.x[1], Q.y[0], Q.y[1]].forEach((c, j) => this.coord(q + j * this.EB, c));
    return q;
  }
  private writeFp12(alloc: (bytes: number) => number, f: Fp12): number {
    const out = alloc(this.E12);
    f.forEach((half, h) => half.forEach((c, j) => c.forEach((v, i) => this.coord(out + (6 * h + 2 * j + i) * this.EB, v))));
    return out;
  }
  private readFp12(ptr: number): Fp12 {
    const fp = this.ctx.inst.fields.fp;
    const c = (h: number, j: number): [bigint, bigint] => [fp.read(ptr + (6 * h + 2 * j) * this.EB), fp.read(ptr + (6 * h + 2 * j + 1) * this.EB)];
    return [[c(0, 0), c(0, 1), c(0, 2)], [c(1, 0), c(1, 1), c(1, 2)]];
  }
  /** The pairs' Miller loop into a fresh F_p¹² (pairs with an infinity skipped); returns its pointer. */
  private runMillerLoop(pairs: readonly (readonly [G1In, G2In | PreparedG2])[], alloc: (bytes: number) => number, scratch: number): number {
    const live = pairs.filter(([P, Q]) => P !== null && Q !== null && !(Q instanceof PreparedG2 && Q.table === null));
    const n = live.length;
    const ps = alloc(Math.max(1, n) * 2 * this.EB);
    const ptrs = alloc(4 * Math.max(1, n));
    live.forEach(([P, Q], i) => {
      this.coord(ps + i * 2 * this.EB, P!.x);
      this.coord(ps + (i * 2 + 1) * this.EB, P!.y);
      const table = alloc(this.tableBytes);
      if (table % 4 !== 0) throw new Error('pairing: a line table off 4-byte alignment');
      // a prepared point's table is normalized: its pointer + 1 tells the loop (pairing_miller_loop)
      let ptr = table;
      if (Q instanceof PreparedG2) {
        if (Q.owner !== this) throw new Error('pairing: a G2 point prepared by another instance');
        new Uint8Array(this.ctx.inst.memory.buffer, table, this.tableBytes).set(Q.table!);
        ptr = table + 1;
      } else {
        this.k.pairing_prepare_g2(table, this.writeG2(alloc, Q as NonNullable<G2In>), scratch);
      }
      new DataView(this.ctx.inst.memory.buffer).setUint32(ptrs + 4 * i, ptr, true);
    });
    const out = alloc(this.E12);
    this.k.pairing_miller_loop(out, ps, ptrs, n, scratch);
    return out;
  }
}
