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
        throw new OutOfMemoryError(
          `pippin: needs ${Math.ceil(end / 2 ** 20)} MiB of Wasm memory, more than the engine allows (${Math.floor(have / 2 ** 20)} MiB in use); split the MSM into smaller ones`,
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
