/**
 * Bump allocation over a Wasm memory: the kernels are allocation-free, the runtime hands them
 * pointers into regions it reserves here. `mark()`/`release()` free everything allocated after a
 * mark (stack discipline), which is all one MSM needs.
 *
 * Long-lived blocks (prepared bases, src/api/prepared.ts) sit below the stack: `allocPinned` takes
 * a freed pinned block that is large enough (first fit) or, when no per-call allocation is alive,
 * raises the floor of the stack over a new block. `freePinned` returns a block; freed blocks at
 * the top of the pinned area are given back to the stack as soon as no per-call allocation is
 * alive (at once, or at the `release` that empties the stack), so the memory in use returns to its
 * previous level once the last blocks are freed.
 */
import { OutOfMemoryError } from '../errors.js';

interface PinnedBlock {
  start: number;
  end: number;
  free: boolean;
}

export class Arena {
  private top: number;
  /** where per-call allocations start: above every pinned block */
  private floor: number;
  /** pinned blocks in address order, contiguous from `base` to `floor` */
  private readonly pinned: PinnedBlock[] = [];

  constructor(
    readonly memory: WebAssembly.Memory,
    private base = 1024,
  ) {
    this.top = base;
    this.floor = base;
  }

  /** Reserves `bytes` (rounded up to `align`), growing the memory when needed. Returns the pointer. */
  alloc(bytes: number, align = 16): number {
    const ptr = Math.ceil(this.top / align) * align;
    const end = ptr + bytes;
    this.ensure(end);
    this.top = end;
    return ptr;
  }
  mark(): number {
    return this.top;
  }
  release(mark: number): void {
    if (mark < this.floor || mark > this.top) throw new Error('Arena.release: bad mark');
    this.top = mark;
    this.trimPinned();
  }
  /** Bytes in use: pinned blocks (free ones included until trimmed) and the per-call stack. */
  get used(): number {
    return this.top - this.base;
  }
  /** Makes everything allocated so far permanent (never released; prepared blocks go above it). */
  keep(): void {
    if (this.pinned.length > 0) throw new Error('Arena.keep: after pinned blocks');
    this.floor = this.top;
    this.base = this.top;
  }
  /** Bytes held by live pinned blocks. */
  get pinnedBytes(): number {
    return this.pinned.reduce((sum, b) => sum + (b.free ? 0 : b.end - b.start), 0);
  }

  /**
   * A long-lived block of `bytes` (16-byte aligned) that survives every `release` until
   * `freePinned`. Needs no per-call allocation alive unless a freed block fits (the caller
   * serializes it with the asynchronous MSMs of the instance); throws otherwise.
   */
  allocPinned(bytes: number): number {
    const size = Math.ceil(Math.max(16, bytes) / 16) * 16;
    const fit = this.pinned.find((b) => b.free && b.end - b.start >= size);
    if (fit) {
      if (fit.end - fit.start > size) this.pinned.splice(this.pinned.indexOf(fit) + 1, 0, { start: fit.start + size, end: fit.end, free: true });
      fit.end = fit.start + size;
      fit.free = false;
      return fit.start;
    }
    if (this.top !== this.floor) throw new Error('Arena.allocPinned: per-call allocations are alive');
    const start = Math.ceil(this.floor / 16) * 16;
    this.ensure(start + size);
    this.pinned.push({ start, end: start + size, free: false });
    this.floor = this.top = start + size;
    return start;
  }

  /** Whether `allocPinned(bytes)` can succeed now (a freed block fits, or no per-call allocation is alive). */
  canPin(bytes: number): boolean {
    const size = Math.ceil(Math.max(16, bytes) / 16) * 16;
    return this.top === this.floor || this.pinned.some((b) => b.free && b.end - b.start >= size);
  }

  /** Frees a block from `allocPinned` (merged with free neighbours; the top ones trimmed when possible). */
  freePinned(ptr: number): void {
    const i = this.pinned.findIndex((b) => b.start === ptr && !b.free);
    if (i < 0) throw new Error('Arena.freePinned: not a live pinned block');
    this.pinned[i].free = true;
    for (let j = this.pinned.length - 1; j > 0; j--) {
      const a = this.pinned[j - 1];
      const b = this.pinned[j];
      if (a.free && b.free) {
        a.end = b.end;
        this.pinned.splice(j, 1);
      }
    }
    this.trimPinned();
  }

  /** Free pinned blocks at the top go back to the stack when it is empty. */
  private trimPinned(): void {
    if (this.top !== this.floor) return;
    while (this.pinned.length > 0 && this.pinned[this.pinned.length - 1].free) this.floor = this.pinned.pop()!.start;
    if (this.pinned.length === 0) this.floor = this.base;
    this.top = this.floor;
  }

  private ensure(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end <= have) return;
    try {
      this.memory.grow(Math.ceil((end - have) / 65536));
    } catch {
      const mib = (b: number) => (b / 2 ** 20).toFixed(b < 2 ** 24 ? 1 : 0);
      throw new OutOfMemoryError(
        `pippin: needs ${mib(end)} MiB of Wasm memory, but the memory (${mib(have)} MiB now) could not grow to that size (Wasm32 caps a memory at 4096 MiB, and engines may allow less); use fewer points per MSM`,
      );
    }
  }
}
