/**
 * Thin typed access to a generated field's kernels: bigint ↔ limbs in Wasm memory, and the
 * exported operations by name. Used by the public API, the tests and the benchmarks.
 */
import { Arena } from './memory.js';
import type { FieldOps } from '../wasm-generated/kernels.js';

export interface FieldInfo {
  /** kernel prefix, e.g. 'fp' */
  name: string;
  p: bigint;
  w: number;
  n: number;
  elementBytes: number;
  byteLength: number;
}

export class WasmField {
  readonly R: bigint;
  private readonly mask: bigint;
  private readonly tmp: number;

  constructor(
    readonly info: FieldInfo,
    readonly exports: Record<string, unknown>,
    readonly arena: Arena,
  ) {
    this.R = 1n << BigInt(info.w * info.n);
    this.mask = (1n << BigInt(info.w)) - 1n;
    this.tmp = arena.alloc(info.elementBytes);
  }

  /** The exported kernel `<prefix>_<op>`. */
  op<K extends keyof FieldOps>(op: K): FieldOps[K] {
    const fn = this.exports[`${this.info.name}_${op}`];
    if (typeof fn !== 'function') throw new Error(`no kernel ${this.info.name}_${op}`);
    return fn as FieldOps[K];
  }
  private get u32(): Uint32Array {
    return new Uint32Array(this.arena.memory.buffer);
  }
  /** limbs of w ≤ 32 bits sit in u32 slots; 64-bit limbs (the wide backend) in u64 slots */
  private get wideSlots(): boolean {
    return this.info.w === 64;
  }
  alloc(count = 1): number {
    return this.arena.alloc(count * this.info.elementBytes);
  }
  /** Writes plain limbs of v (0 ≤ v < R), no Montgomery conversion. */
  writeLimbs(ptr: number, v: bigint): void {
    if (v < 0n || v >= this.R) throw new RangeError('value does not fit the limbs');
    if (this.wideSlots) {
      const u64 = new BigUint64Array(this.arena.memory.buffer, ptr, this.info.n);
      for (let j = 0; j < this.info.n; j++, v >>= 64n) u64[j] = v & this.mask;
      return;
    }
    const u32 = this.u32;
    const w = BigInt(this.info.w);
    for (let j = 0; j < this.info.n; j++, v >>= w) u32[(ptr >> 2) + j] = Number(v & this.mask);
  }
  readLimbs(ptr: number): bigint {
    if (this.wideSlots) {
      const u64 = new BigUint64Array(this.arena.memory.buffer, ptr, this.info.n);
      let v = 0n;
      for (let j = this.info.n - 1; j >= 0; j--) v = (v << 64n) | u64[j];
      return v;
    }
    const u32 = this.u32;
    let v = 0n;
    for (let j = this.info.n - 1; j >= 0; j--) v = (v << BigInt(this.info.w)) | BigInt(u32[(ptr >> 2) + j]);
    return v;
  }
  /** Writes v mod p in Montgomery form (v may be any non-negative value below R). */
  write(ptr: number, v: bigint): void {
    this.writeLimbs(ptr, v);
    this.op('to_mont')(ptr, ptr);
  }
  /** Reads the canonical value of a Montgomery-form element. */
  read(ptr: number): bigint {
    this.op('from_mont')(this.tmp, ptr);
    return this.readLimbs(this.tmp);
  }
}
