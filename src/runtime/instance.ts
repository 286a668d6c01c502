/**
 * Instantiates a generated module from its embedded base64 bytes (works unconfigured in Node and in
 * any bundler: no file URLs, no fetch) and wraps its fields.
 */
import { Arena } from './memory.js';
import { FieldInfo, WasmField } from './field.js';

export interface GeneratedModule {
  fields: Record<string, { name: string; p: string; w: number; n: number; elementBytes: number; byteLength: number }>;
  /** point encodings of the module's G1 codec kernels */
  formats: readonly { name: string; code: number; bytes: number }[];
  wasmBase64: string;
}

export function decodeBase64(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export interface Instance {
  exports: Record<string, unknown>;
  memory: WebAssembly.Memory;
  arena: Arena;
  fields: Record<string, WasmField>;
}

export async function instantiate(bytes: Uint8Array<ArrayBuffer>, fieldInfos: FieldInfo[]): Promise<Instance> {
  const module = await WebAssembly.compile(bytes);
  const instance = await WebAssembly.instantiate(module);
  const exports = instance.exports as Record<string, unknown>;
  const memory = exports.memory as WebAssembly.Memory;
  const arena = new Arena(memory);
  const fields = Object.fromEntries(fieldInfos.map((f) => [f.name, new WasmField(f, exports, arena)]));
  return { exports, memory, arena, fields };
}

export async function instantiateGenerated(mod: GeneratedModule): Promise<Instance> {
  const infos: FieldInfo[] = Object.values(mod.fields).map((f) => ({ ...f, p: BigInt(f.p) }));
  return instantiate(decodeBase64(mod.wasmBase64), infos);
}
