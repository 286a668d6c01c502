/**
 * Typed errors of the public API. Every input error names what is wrong and where: `index` is the
 * position of the offending point or scalar (or −1 when the error is about the whole input).
 */
export class PippinError extends Error {
  constructor(
    message: string,
    readonly index = -1,
  ) {
    super(message);
    this.name = new.target.name;
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
/** The library was used before `init()` finished. */
export class NotInitializedError extends PippinError {}

export { OutOfMemoryError } from '../runtime/memory.js';
/** A worker thread threw or died during an MSM; the pool replaced it and later calls work again. */
export class WorkerError extends PippinError {}
