/**
 * Every error pippin throws, in one module (the API, the runtime and the pool import it). Input
 * errors name what is wrong and where: `index` is the position of the offending point or scalar,
 * or −1 when the error is about the whole input or an option.
 *
 * @example
 * ```ts
 * import { bls12_381, PippinError } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * try {
 *   bls12_381.g1.msmSync([G, { x: 1n, y: 1n }], [1n, 2n]);
 * } catch (e) {
 *   if (!(e instanceof PippinError)) throw e;
 *   console.log(e.name, e.index); // → NotOnCurveError 1
 * }
 * ```
 */
export class PippinError extends Error {
  /**
   * An error with its message and the offending position (pippin throws these; subclasses take the same arguments).
   *
   * @param message - what is wrong, and where
   * @param index - the position of the offending point or scalar; −1 (the default) when the error
   *   is about the whole input or an option
   */
  constructor(
    message: string,
    readonly index = -1,
  ) {
    super(message);
    // subclasses pin their own name (minifiers rename classes)
    this.name = new.target === PippinError ? 'PippinError' : new.target.name;
  }

  /** `e instanceof PippinError` holds for every error pippin throws, OutOfMemoryError (a RangeError) included. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === PippinError && value instanceof OutOfMemoryError;
  }
}

/**
 * A point's bytes or object are malformed: wrong flags, non-canonical coordinate, bad infinity encoding, no square root.
 *
 * @example
 * ```ts
 * import { bls12_381, PointEncodingError } from 'pippin';
 * await bls12_381.init();
 * const bytes = new Uint8Array(2 * 96);
 * bytes.set(bls12_381.g1.toBytes(bls12_381.params.G1)); // point 0: the generator, 96 bytes
 * bytes[96] = 0xa0; // point 1: the compression flag in a 96-byte (uncompressed) encoding
 * try {
 *   bls12_381.g1.msmSync(bytes, [1n, 1n]);
 * } catch (e) {
 *   console.log(e instanceof PointEncodingError, (e as PointEncodingError).index); // → true 1
 * }
 * ```
 */
export class PointEncodingError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'PointEncodingError';
}
/**
 * A point does not satisfy the curve equation.
 *
 * @example
 * ```ts
 * import { bn254, NotOnCurveError } from 'pippin';
 * await bn254.init();
 * try {
 *   bn254.g1.msmSync([{ x: 1n, y: 3n }], [5n]); // 3² ≠ 1³ + 3
 * } catch (e) {
 *   console.log(e instanceof NotOnCurveError); // → true
 * }
 * ```
 */
export class NotOnCurveError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'NotOnCurveError';
}
/**
 * A point is on the curve but not in the prime-order subgroup.
 *
 * @example
 * ```ts
 * import { bls12_381, NotInSubgroupError } from 'pippin';
 * await bls12_381.init();
 * const P = { x: 0n, y: 2n }; // on y² = x³ + 4, of order 3: outside the order-r subgroup
 * try {
 *   bls12_381.g1.msmSync([P], [1n]); // validate: 'full' by default
 * } catch (e) {
 *   console.log(e instanceof NotInSubgroupError); // → true
 * }
 * console.log(bls12_381.g1.msmSync([P], [3n], { validate: 'on-curve' }).infinity); // → true
 * ```
 */
export class NotInSubgroupError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'NotInSubgroupError';
}
/**
 * Points and scalars disagree in count, or a packed buffer's length is not a multiple of its element size.
 *
 * @example
 * ```ts
 * import { bls12_381, LengthMismatchError } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * try {
 *   bls12_381.g1.msmSync([G, G], [1n]);
 * } catch (e) {
 *   console.log(e instanceof LengthMismatchError); // → true
 * }
 * ```
 */
export class LengthMismatchError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'LengthMismatchError';
}
/**
 * A scalar is not a bigint / has the wrong byte length.
 *
 * @example
 * ```ts
 * import { bls12_381, ScalarEncodingError } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const scalars = [1n, 2] as unknown as bigint[]; // a number where a bigint belongs (plain JavaScript)
 * try {
 *   bls12_381.g1.msmSync([G, G], scalars);
 * } catch (e) {
 *   console.log(e instanceof ScalarEncodingError, (e as ScalarEncodingError).index); // → true 1
 * }
 * ```
 */
export class ScalarEncodingError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'ScalarEncodingError';
}
/**
 * The library was used before `init()` finished, or after `release()` until `init()` is awaited again.
 *
 * @example
 * ```ts
 * import { pallas, NotInitializedError } from 'pippin';
 * await pallas.init();
 * await pallas.release();
 * try {
 *   pallas.info();
 * } catch (e) {
 *   console.log(e instanceof NotInitializedError); // → true
 * }
 * await pallas.init(); // usable again
 * ```
 */
export class NotInitializedError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'NotInitializedError';
}
/**
 * `init({ backend })` asked for a backend this engine cannot run (`'wide64'` needs the Wasm
 * wide-arithmetic instructions), or one other than the backend the curve was already initialized
 * with: `backend` names the one asked for.
 *
 * @example
 * ```ts
 * import { vesta, BackendUnavailableError } from 'pippin';
 * await vesta.init({ backend: 'i32' });
 * try {
 *   await vesta.init({ backend: 'wide64' }); // not the backend already running
 * } catch (e) {
 *   if (!(e instanceof BackendUnavailableError)) throw e;
 *   console.log(e.backend); // → wide64
 * }
 * ```
 */
export class BackendUnavailableError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'BackendUnavailableError';
  /**
   * An error naming the backend asked for.
   *
   * @param message - what is missing, and where
   * @param backend - the backend that was asked for (`'wide64'` or `'i32'`)
   */
  constructor(
    message: string,
    readonly backend: string,
  ) {
    super(message);
  }
}
/**
 * Prepared bases (`g1.prepare`, `g2.prepare`) were used after `dispose()`, or after their curve's `release()`.
 *
 * @example
 * ```ts
 * import { bls12_381, DisposedError } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const bases = await bls12_381.g1.prepare([G, G]);
 * bases.dispose();
 * try {
 *   bases.msmSync([1n, 2n]);
 * } catch (e) {
 *   console.log(e instanceof DisposedError); // → true
 * }
 * ```
 */
export class DisposedError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'DisposedError';
}
/**
 * A worker thread threw or died during an MSM, or the pool was stopped under it; later calls work again.
 *
 * @example
 * ```ts
 * import { bls12_381, WorkerError, type G1PointInput } from 'pippin';
 * // a call that failed on a worker may simply be made again
 * async function msmRetrying(points: G1PointInput[], scalars: bigint[]) {
 *   try {
 *     return await bls12_381.g1.msm(points, scalars);
 *   } catch (e) {
 *     if (!(e instanceof WorkerError)) throw e;
 *     return bls12_381.g1.msm(points, scalars);
 *   }
 * }
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * console.log((await msmRetrying([G], [0n])).infinity); // → true
 * ```
 */
export class WorkerError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'WorkerError';
}

/**
 * An option has an unknown name, the wrong type or a value out of range: `option` names it,
 * `value` is what was given; the message says what is allowed.
 *
 * @example
 * ```ts
 * import { bls12_381, InvalidOptionError } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * try {
 *   bls12_381.g1.msmSync([G], [1n], { windowBits: 40 });
 * } catch (e) {
 *   if (!(e instanceof InvalidOptionError)) throw e;
 *   console.log(e.option, e.value); // → windowBits 40
 * }
 * ```
 */
export class InvalidOptionError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'InvalidOptionError';
  /**
   * An error naming the option and the value given.
   *
   * @param message - what is wrong and what is allowed
   * @param option - the option's name
   * @param value - the value given
   */
  constructor(
    message: string,
    readonly option: string,
    readonly value: unknown,
  ) {
    super(message);
  }
}

/**
 * An EVM precompile's input is invalid (pippin/evm): `precompile` names it (e.g. `'BLS12_G1MSM'`),
 * `reason` is the EIP's error case (`'invalid input length'`, `'invalid field element'`, `'point not
 * on curve'`, `'point not in subgroup'`), `index` the offending pair or point (−1: the whole input).
 * The EVM burns all the call's gas on any error a precompile backend throws.
 *
 * @example
 * ```ts
 * import { PrecompileInputError } from 'pippin';
 * import { createEvmBackends } from 'pippin/evm';
 * const { bls } = await createEvmBackends();
 * try {
 *   bls.msmG1(new Uint8Array(100)); // not a multiple of 160 bytes
 * } catch (e) {
 *   if (!(e instanceof PrecompileInputError)) throw e;
 *   console.log(e.precompile, e.reason); // → BLS12_G1MSM invalid input length
 * }
 * ```
 */
export class PrecompileInputError extends PippinError {
  /** The class name, kept through minification (which renames classes). */
  override readonly name: string = 'PrecompileInputError';
  /**
   * An error naming the precompile, the EIP's reason and the position.
   *
   * @param message - what is wrong, and where
   * @param precompile - the precompile's name, as its EIP spells it (`'BLS12_G1ADD'`, `'ECADD'`, …)
   * @param reason - the EIP's error case
   * @param index - the offending pair or point, −1 for the whole input
   */
  constructor(
    message: string,
    readonly precompile: string,
    readonly reason: string,
    index = -1,
  ) {
    super(message, index);
  }
}

/**
 * The Wasm memory cannot grow enough for the requested work (Wasm32 caps it at 4 GiB, engines often
 * lower). A RangeError, and also `instanceof PippinError`.
 *
 * @example
 * ```ts
 * import { OutOfMemoryError, PippinError } from 'pippin';
 * const e = new OutOfMemoryError('bls12-381.g1.msm: the Wasm memory cannot grow to 5 GiB');
 * console.log(e instanceof RangeError, e instanceof PippinError, e.index); // → true true -1
 * ```
 */
export class OutOfMemoryError extends RangeError {
  /** −1: the error is about the size of the whole input or MSM (as PippinError's index) */
  readonly index = -1;
  /**
   * An out-of-memory error (its `index` is −1).
   *
   * @param message - what could not be allocated, and where
   */
  constructor(message: string) {
    super(message);
    this.name = 'OutOfMemoryError';
  }
}
