/**
 * Bump allocation over a Wasm memory: the kernels are allocation-free, the runtime hands them
 * pointers into regions it reserves here. `mark()`/`release()` free everything allocated after a
 * mark (stack discipline), which is all the MSM needs.
 */
import { OutOfMemoryError } from '../errors.js';

export class Arena {
  private top: number;

  constructor(
    readonly memory: WebAssembly.Memory,
    readonly base = 1024,
  ) {
    this.top = base;
  }

  /** Reserves `bytes` (rounded up to `align`), growing the memory when needed. Returns the pointer. */
  alloc(bytes: number, align = 16): number {
    const ptr = Math.ceil(this.top / align) * align;
    const end = ptr + bytes;
    const have = this.memory.buffer.byteLength;
    if (end > have) {
      try {
        this.memory.grow(Math.ceil((end - have) / 65536));
      } catch {
        const mib = (b: number) => (b / 2 ** 20).toFixed(b < 2 ** 24 ? 1 : 0);
        throw new OutOfMemoryError(
          `pippin: needs ${mib(end)} MiB of Wasm memory, but the memory (${mib(have)} MiB now) could not grow to that size (Wasm32 caps a memory at 4096 MiB, and engines may allow less); use fewer points per MSM`,
        );
      }
    }
    this.top = end;
    return ptr;
  }
  mark(): number {
    return this.top;
  }
  release(mark: number): void {
    if (mark < this.base || mark > this.top) throw new Error('Arena.release: bad mark');
    this.top = mark;
  }
  get used(): number {
    return this.top - this.base;
  }
}
