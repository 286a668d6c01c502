/**
 * Minimal typings for the parts of `ffjavascript` 0.3.1 the benchmark uses (the package ships none).
 */
declare module "ffjavascript" {
  export interface WasmField1 {
    n8: number;
  }
  export interface WasmCurveGroup {
    F: WasmField1;
    /** bigint affine [x, y] (or projective [x, y, z]) → internal Montgomery-form buffer. */
    fromObject(a: bigint[]): Uint8Array;
    /** internal buffer → [x, y, z] bigints. */
    toObject(a: Uint8Array): bigint[];
    toAffine(a: Uint8Array): Uint8Array;
    toRprLEM(arr: Uint8Array, offset: number, a: Uint8Array): void;
    isZero(a: Uint8Array): boolean;
    multiExpAffine(bases: Uint8Array, scalars: Uint8Array): Promise<Uint8Array>;
  }
  export interface ThreadManager {
    /** 1 for the single-thread build, else the number of workers. */
    concurrency: number;
  }
  /** G2: coordinates are F_p² elements, [c0, c1] as objects. */
  export interface WasmCurveGroup2 {
    F: WasmField1;
    fromObject(a: bigint[][]): Uint8Array;
    toObject(a: Uint8Array): bigint[][];
    toAffine(a: Uint8Array): Uint8Array;
    toRprLEM(arr: Uint8Array, offset: number, a: Uint8Array): void;
    isZero(a: Uint8Array): boolean;
    multiExpAffine(bases: Uint8Array, scalars: Uint8Array): Promise<Uint8Array>;
  }
  export interface WasmCurve {
    G1: WasmCurveGroup;
    G2: WasmCurveGroup2;
    tm: ThreadManager;
    terminate(): Promise<void>;
  }
  export function buildBls12381(singleThread?: boolean): Promise<WasmCurve>;
  export function buildBn128(singleThread?: boolean): Promise<WasmCurve>;
}
