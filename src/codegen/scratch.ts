/**
 * Scratch contracts of kernels whose scratch grows with a count argument, taken from their source:
 * the src/abi/layout.ts function the runtime sizes the scratch with. The kernel's header states
 * that function, evaluated at the module's element size, and the generator checks that the
 * kernel's own use of the scratch fits it (ModuleBuilder.func).
 */

/** A src/abi/layout.ts scratch function: bytes for `count` items with field elements of `EB` bytes. */
export type ScratchFunction = (count: number, EB: number) => number;

export interface CountedScratch {
  readonly fn: ScratchFunction;
  readonly EB: number;
  /** bytes the kernel touches for `count`, checked ≤ fn(count, EB) */
  readonly used: (count: number) => number;
  /** the header's statement, e.g. `batchAddScratchBytes(count, 52) (src/abi/layout.ts) = 105·count + 424 bytes` */
  doc(countName?: string): string;
}

/** Counts the contract is checked at: the edges, small batches, and sizes the runtime uses. */
const CHECKED_COUNTS = [0, 1, 2, 3, 7, 64, 1000, 4096, 1 << 16];

/** The scratch contract of a kernel; throws if `used` exceeds `fn` or `fn` is not linear in count. */
export function countedScratch(fn: ScratchFunction, EB: number, used: (count: number) => number): CountedScratch {
  if (!fn.name) throw new Error('countedScratch: the layout function must be named (its name goes into the header)');
  const b = fn(0, EB);
  const a = fn(1, EB) - b;
  for (const n of CHECKED_COUNTS) {
    if (fn(n, EB) !== a * n + b) throw new Error(`${fn.name}: not linear in count (the header states a·count + b)`);
    if (used(n) > fn(n, EB)) throw new Error(`${fn.name}(${n}, ${EB}) = ${fn(n, EB)} bytes, but the kernel uses ${used(n)}`);
  }
  return { fn, EB, used, doc: (count = 'count') => `${fn.name}(${count}, ${EB}) (src/abi/layout.ts) = ${a}·${count} + ${b} bytes` };
}
