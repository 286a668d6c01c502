/**
 * Instantiates a generated module from its embedded base64 bytes (works unconfigured in Node and in
 * any bundler: no file URLs, no fetch) on a memory the runtime creates: shared when threads are
 * possible (so workers instantiate the same compiled module on it), otherwise a plain one. The
 * instance's kernels are typed by the generated ABI (src/wasm-generated/kernels.ts).
 */
import { Arena } from './memory.js';
import { NotInitializedError } from '../errors.js';
import { FieldInfo, WasmField } from './field.js';
import { INITIAL_PAGES, MAXIMUM_PAGES, type PointFormatSpec } from '../abi/codes.js';
import type { FixedScratchKernel, Kernels } from '../wasm-generated/kernels.js';

/** What src/codegen/build.ts writes for each module (src/wasm-generated/<curve>.ts). */
export interface GeneratedModule {
  fields: Record<string, { name: string; p: string; w: number; n: number; elementBytes: number; byteLength: number }>;
  /** point encodings of the module's G1 codec kernels */
  formats: readonly PointFormatSpec<string>[];
  /** scratch bytes of the fixed-scratch kernels */
  scratchBytes: Readonly<Record<FixedScratchKernel, number>>;
  /** point encodings of the G2 codec kernels (modules of curves with a G2 only) */
  g2Formats?: readonly PointFormatSpec<string>[];
  /** the G2 cofactor h2 (modules with a G2 only) */
  g2Cofactor?: bigint;
  /** offset of the memory import's limits flags in the binary (0x01 as built, 0x03 shared) */
  sharedFlagOffset: number;
  wasmBase64: string;
  /** the same kernels on 64-bit limbs with Wasm wide arithmetic (src/codegen/field64.ts), where built */
  wide64?: WideModule;
}

/** The wide64 variant of a module: its own layout (48-byte elements for 381 bits) and binary. */
export type WideModule = Pick<GeneratedModule, 'fields' | 'scratchBytes' | 'sharedFlagOffset' | 'wasmBase64'>;

export function decodeBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export interface Instance<K = Kernels> {
  /** the kernels, typed */
  k: K;
  /** the raw exports (the task interpreter reads kernels and counters by name) */
  exports: Record<string, unknown>;
  memory: WebAssembly.Memory;
  arena: Arena;
  fields: Record<string, WasmField>;
  /** the compiled module (workers instantiate it on `memory` when it is shared) */
  module: WebAssembly.Module;
  /** whether `memory` is a shared memory (threads possible) */
  shared: boolean;
  /** set by `releaseInstance`: the instance holds nothing any more */
  released?: boolean;
}

/** The members of an Instance that reach its memory (directly or through the exports). */
const HOLDING = Object.freeze(['k', 'exports', 'memory', 'arena', 'fields', 'module', 'shared'] as const);

/**
 * Drops what an instance holds (kernels, memory, arena, fields, module), in place, so that objects
 * still referring to it (group contexts, prepared bases, a caller's `g1.inst`) no longer keep its
 * Wasm memory alive: each of those members now throws NotInitializedError(`message`), and
 * `released` is true. The caller ensures no call is using it (src/api/curve.ts: `release`).
 */
export function releaseInstance(inst: Instance, message: string): void {
  const gone = (): never => {
    throw new NotInitializedError(message);
  };
  for (const key of HOLDING) Object.defineProperty(inst, key, { get: gone, enumerable: true, configurable: true });
  inst.released = true;
}

/**
 * A shared memory when the environment allows one (SharedArrayBuffer present, not refused by the
 * engine), else null. Engines reserve a shared memory's maximum up front: on failure a 1 GiB
 * maximum is tried before giving up.
 */
export function createSharedMemory(): WebAssembly.Memory | null {
  if (typeof SharedArrayBuffer === 'undefined') return null;
  for (const maximum of [MAXIMUM_PAGES, 16384]) {
    try {
      return new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum, shared: true });
    } catch {
      // try the smaller reservation, then fall back to a plain memory
    }
  }
  return null;
}

export async function instantiate<K = Kernels>(
  bytes: Uint8Array<ArrayBuffer>,
  fieldInfos: FieldInfo[],
  memory: WebAssembly.Memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES }),
  shared = false,
): Promise<Instance<K>> {
  const module = await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(module, { env: { memory } });
  const exports = instance.exports as Record<string, unknown>;
  const arena = new Arena(memory);
  const fields = Object.fromEntries(fieldInfos.map((f) => [f.name, new WasmField(f, exports, arena)]));
  arena.keep(); // the fields' temporaries live as long as the instance
  return { k: exports as K, exports, memory, arena, fields, module, shared };
}

/** The field layouts of a generated module, as the runtime's FieldInfo. */
export function fieldInfos(mod: Pick<GeneratedModule, 'fields'>): FieldInfo[] {
  return Object.values(mod.fields).map((f) => ({ ...f, p: BigInt(f.p) }));
}

/**
 * Instantiates a generated module; `shared: 'auto'` (default) uses a shared memory when available,
 * `false` forces a plain one.
 */
export async function instantiateGenerated(mod: Omit<GeneratedModule, 'formats'>, options: { shared?: 'auto' | false } = {}): Promise<Instance> {
  const infos = fieldInfos(mod);
  const bytes = decodeBase64(mod.wasmBase64);
  const memory = options.shared === false ? null : createSharedMemory();
  if (!memory) return instantiate(bytes, infos);
  if (bytes[mod.sharedFlagOffset] !== 0x01) throw new Error('pippin: generated module has no memory flag at the recorded offset');
  bytes[mod.sharedFlagOffset] = 0x03;
  return instantiate(bytes, infos, memory, true);
}
