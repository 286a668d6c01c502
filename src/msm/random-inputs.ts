/**
 * Deterministic random MSM inputs with known discrete logs, generated fast: a few base points
 * a_j·G (bigint), then the set is doubled level by level with Wasm batch-affine additions
 * (P_new = P_k + P_j, log a_new = a_k + a_j mod r): n additions in all, no per-point scalar
 * multiplication. The known logs give a closed-form check: Σ s_i·P_i = (Σ s_i·a_i mod r)·G.
 */
import type { Instance } from '../runtime/instance.js';
import type { G2Kernels } from '../wasm-generated/kernels.js';
import { PAIR_BYTES, batchAddScratchBytes } from '../abi/layout.js';

/** The seeded generator the inputs draw from (src/reference/rng.ts's makeRng fits). */
export interface SeededRng {
  nextU32(): number;
}

export function randomScalarBytes(n: number, rng: SeededRng): Uint8Array {
  const out = new Uint8Array(32 * n);
  const u32 = new Uint32Array(out.buffer);
  for (let i = 0; i < u32.length; i++) u32[i] = rng.nextU32();
  return out;
}

export interface GeneratedPoints {
  /** encoded points in the given format (kernel code and bytes per point) */
  bytes: Uint8Array;
  /** discrete logs: P_i = logs[i]·G */
  logs: bigint[];
}

/** How the generator writes, adds and encodes the points of one group (G1 by default, G2: g2Io). */
export interface GroupIo<P> {
  /** bytes of a coordinate-field element (an affine point is 2·EB) */
  EB: number;
  write(ptr: number, P: P): void;
  batchAdd(pairs: number, count: number, scratch: number): void;
  encode(dst: number, ptr: number, code: number, scratch: number): void;
}

/** G1: base-field coordinates, g1_batch_add, g1_encode. */
export function g1Io(inst: Instance): GroupIo<{ x: bigint; y: bigint }> {
  const fp = inst.fields.fp;
  const EB = fp.info.elementBytes;
  return {
    EB,
    write(ptr, P) {
      fp.write(ptr, P.x);
      fp.write(ptr + EB, P.y);
    },
    batchAdd: (pairs, count, scratch) => inst.k.g1_batch_add(pairs, count, scratch),
    encode: (dst, ptr, code, scratch) => inst.k.g1_encode(dst, ptr, 0, code, scratch),
  };
}

/** G2: F_p² coordinates [c0, c1], g2_batch_add, g2_encode (modules of curves with a G2). */
export function g2Io(inst: Instance): GroupIo<{ readonly x: readonly [bigint, bigint]; readonly y: readonly [bigint, bigint] }> {
  const k = inst.k as unknown as G2Kernels;
  const fp = inst.fields.fp;
  const E = fp.info.elementBytes;
  return {
    EB: 2 * E,
    write(ptr, P) {
      [P.x[0], P.x[1], P.y[0], P.y[1]].forEach((c, j) => fp.write(ptr + j * E, c));
    },
    batchAdd: (pairs, count, scratch) => k.g2_batch_add(pairs, count, scratch),
    encode: (dst, ptr, code, scratch) => k.g2_encode(dst, ptr, 0, code, scratch),
  };
}

/**
 * n random points encoded in `format`, with their logs. `mulG(a)` returns a·G as affine bigints
 * (the bigint reference does this for the few base points); `io` says how points of the group are
 * written, added and encoded (default G1).
 */
export function randomPoints<P = { x: bigint; y: bigint }>(
  inst: Instance,
  n: number,
  rng: SeededRng,
  r: bigint,
  mulG: (a: bigint) => P,
  format: { code: number; bytes: number },
  io: GroupIo<P> = g1Io(inst) as unknown as GroupIo<P>,
): GeneratedPoints {
  const EB = io.EB;
  const PB = 2 * EB;
  const { arena } = inst;
  const mark = arena.mark();
  const base = Math.min(n, 16);
  const pts = arena.alloc(Math.max(n, 1) * PB);
  const logs: bigint[] = [];
  const rand = () => {
    let v = 0n;
    for (let i = 0; i < 8; i++) v = (v << 32n) | BigInt(rng.nextU32());
    return (v % (r - 1n)) + 1n;
  };
  for (let j = 0; j < base; j++) {
    const a = rand();
    io.write(pts + j * PB, mulG(a));
    logs.push(a);
  }
  const batchMax = Math.max(1, Math.min(n, 1 << 14));
  const pairs = arena.alloc(PAIR_BYTES * batchMax);
  const scratch = arena.alloc(batchAddScratchBytes(batchMax, EB));
  let have = base;
  while (have < n) {
    const add = Math.min(have, n - have, batchMax);
    const i32 = new Int32Array(inst.memory.buffer, pairs, 4 * add);
    for (let t = 0; t < add; t++) {
      const a = t;
      // partner: a pseudo-random other point (never a itself)
      const b = (a + 1 + (rng.nextU32() % (have - 1 || 1))) % have;
      const dst = have + t;
      i32[4 * t] = pts + dst * PB;
      i32[4 * t + 1] = pts + a * PB;
      i32[4 * t + 2] = pts + b * PB;
      i32[4 * t + 3] = 0;
      logs.push((logs[a] + logs[b]) % r);
    }
    io.batchAdd(pairs, add, scratch);
    for (let t = 0; t < add; t++) {
      if (i32[4 * t + 3] & 0x80000000) throw new Error('random point generation hit the point at infinity');
    }
    have += add;
  }
  const size = format.bytes;
  const bytes = new Uint8Array(size * n);
  const enc = arena.alloc(size);
  const encScratch = arena.alloc(32 * EB);
  for (let i = 0; i < n; i++) {
    io.encode(enc, pts + i * PB, format.code, encScratch);
    bytes.set(new Uint8Array(inst.memory.buffer, enc, size), size * i);
  }
  arena.release(mark);
  return { bytes, logs };
}

/**
 * The discrete log of the expected MSM result for inputs with known logs: Σ s_i·a_i mod r, with the
 * scalars as 32-byte little-endian integers (so the result is that multiple of the generator).
 */
export function expectedLog(scalars: Uint8Array, logs: readonly bigint[], r: bigint): bigint {
  let acc = 0n;
  for (let i = 0; i < logs.length; i++) {
    let s = 0n;
    for (let b = 31; b >= 0; b--) s = (s << 8n) | BigInt(scalars[32 * i + b]);
    acc = (acc + s * logs[i]) % r;
  }
  return acc;
}
