/**
 * pippin — multi-scalar multiplication in WebAssembly.
 *
 * This entry currently exposes the field layer (the MSM API builds on it).
 */
export { instantiateGenerated, decodeBase64 } from './runtime/instance.js';
export type { Instance, GeneratedModule } from './runtime/instance.js';
export { WasmField } from './runtime/field.js';
export type { FieldInfo } from './runtime/field.js';
export { Arena } from './runtime/memory.js';
export { bls12_381 as bls12_381Params } from './curves/bls12-381.js';
