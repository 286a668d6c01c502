/**
 * Progress of one MSM call (`onProgress`): the work is counted in "point passes" fixed at the
 * start — one pass over the points to decode and check them, one per batched subgroup check, and
 * one per window of the MSM — so `total` never changes during a call and `done` only grows. The
 * callback runs at most every `MIN_INTERVAL_MS` (its first call at the start, with done = 0), and
 * always once more at the end with done === total and phase 'done'.
 *
 * @example
 * ```ts
 * import { bls12_381, type MsmPhase } from 'pippin';
 * await bls12_381.init();
 * const phases = new Set<MsmPhase>();
 * bls12_381.g1.msmSync([bls12_381.params.G1], [1n], { onProgress: (p) => phases.add(p.phase) });
 * console.log(phases.has('done')); // → true
 * ```
 */
export type MsmPhase =
  /** decoding the point bytes and the per-point checks */
  | 'decode'
  /** the batched subgroup check ('full' on curves with a cofactor) */
  | 'subgroup'
  /** bucket accumulation and reduction, window after window */
  | 'accumulate'
  /** the final report: done === total */
  | 'done';

/**
 * One progress report (`onProgress`): `done` of `total` point passes, in `phase`.
 *
 * @example
 * ```ts
 * import { bls12_381, type MsmProgress } from 'pippin';
 * await bls12_381.init();
 * const G = bls12_381.params.G1;
 * const reports: MsmProgress[] = [];
 * await bls12_381.g1.msm([G, G], [1n, 2n], { onProgress: (p) => reports.push(p) });
 * const last = reports[reports.length - 1];
 * console.log(last.phase, last.done === last.total); // → done true
 * ```
 */
export interface MsmProgress {
  /** point passes done (never decreases; fractional while a pass runs) */
  done: number;
  /** point passes in all, fixed at the start of the call */
  total: number;
  /** what runs now */
  phase: MsmPhase;
}

/** Least milliseconds between two progress calls (the last one excepted). */
export const MIN_INTERVAL_MS = 50;

/** Meters a call's progress for `report` (the MSM's phases by default; product entries name their own). */
export class ProgressMeter<P extends string = Exclude<MsmPhase, 'done'>> {
  private done = 0;
  private last = -Infinity;
  private finished = false;

  constructor(
    /** Infinity while unknown (iterable inputs): `finish` then gives it */
    private total: number,
    private readonly report: ((p: { done: number; total: number; phase: P | 'done' }) => void) | undefined,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Adds `units` (may be fractional) of work finished in `phase`; reports when the interval has passed. */
  advance(units: number, phase: P): void {
    if (!this.report || this.finished) return;
    this.done = Math.min(this.total, this.done + units);
    const t = this.now();
    if (t - this.last < MIN_INTERVAL_MS) return;
    this.last = t;
    // whole units only, and never total before the end
    this.report({ done: Math.min(Math.floor(this.done), Math.max(0, this.total - 1)), total: this.total, phase });
  }

  /** The last report: done === total (`total` given here when it was not known at the start). */
  finish(total = this.total): void {
    if (!this.report || this.finished) return;
    this.finished = true;
    this.total = total;
    this.done = total;
    this.report({ done: this.total, total: this.total, phase: 'done' });
  }
}
