/**
 * Every error pippin throws, in one module (the API, the runtime and the pool import it). Input
 * errors name what is wrong and where: `index` is the position of the offending point or scalar,
 * or −1 when the error is about the whole input or an option.
 */
export class PippinError extends Error {
  constructor(
    message: string,
    readonly index = -1,
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** `e instanceof PippinError` holds for every error pippin throws, OutOfMemoryError (a RangeError) included. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    return this === PippinError && value instanceof OutOfMemoryError;
  }
}

/** A point's bytes or object are malformed: wrong flags, non-canonical coordinate, bad infinity encoding, no square root. */
export class PointEncodingError extends PippinError {}
/** A point does not satisfy the curve equation. */
export class NotOnCurveError extends PippinError {}
/** A point is on the curve but not in the prime-order subgroup. */
export class NotInSubgroupError extends PippinError {}
/** Points and scalars disagree in count, or a packed buffer's length is not a multiple of its element size. */
export class LengthMismatchError extends PippinError {}
/** A scalar is not a bigint / has the wrong byte length. */
export class ScalarEncodingError extends PippinError {}
/** The library was used before `init()` finished, or after `release()` until `init()` is awaited again. */
export class NotInitializedError extends PippinError {}
/**
 * `init({ backend })` asked for a backend this engine cannot run (`'wide64'` needs the Wasm
 * wide-arithmetic instructions), or one other than the backend the curve was already initialized
 * with: `backend` names the one asked for.
 */
export class BackendUnavailableError extends PippinError {
  constructor(
    message: string,
    readonly backend: string,
  ) {
    super(message);
  }
}
/** Prepared bases (`g1.prepare`, `g2.prepare`) were used after `dispose()`, or after their curve's `release()`. */
export class DisposedError extends PippinError {}
/** A worker thread threw or died during an MSM, or the pool was stopped under it; later calls work again. */
export class WorkerError extends PippinError {}

/**
 * An option has an unknown name, the wrong type or a value out of range: `option` names it,
 * `value` is what was given; the message says what is allowed.
 */
export class InvalidOptionError extends PippinError {
  constructor(
    message: string,
    readonly option: string,
    readonly value: unknown,
  ) {
    super(message);
  }
}

/** The Wasm memory cannot grow enough for the requested work (Wasm32 caps it at 4 GiB, engines often lower). */
export class OutOfMemoryError extends RangeError {
  /** −1: the error is about the size of the whole input or MSM (as PippinError's index) */
  readonly index = -1;
  constructor(message: string) {
    super(message);
    this.name = 'OutOfMemoryError';
  }
}
