/**
 * WindowCombiner over the Wasm XYZZ kernels (src/codegen/curve.ts). Per window, with the segment
 * results R_j (segment sums) and P_j (weighted segment sums) of m buckets each:
 *   W = Σ_j P_j + m·Σ_{j≥1} j·R_j   (running sum over j, then log2(m) doublings)
 * and the windows are joined by Horner: S = W_{K−1}; S ← 2^(t_(k+1) − t_k)·S + W_k for k = K−2 … 0
 * (t_k the first bit of window k). Tiles (ranges
 * of one window, see planTiles) are summed into their window's W_k.
 * About 3S XYZZ operations per window (S ≤ 256), negligible next to the accumulation.
 */
import type { WindowCombiner } from './program.js';
import type { GroupContext } from './group.js';

/** A combiner for one MSM of the context's group (allocates on the arena until `finish`). */
export function xyzzCombiner<A>(ctx: GroupContext<A>): WindowCombiner<A> {
  const { inst, k, EB, readAffine } = ctx;
  const kn = ctx.kn;
  const PB = 2 * EB;
  const XB = 4 * EB;
  const { arena } = inst;
  const mark = arena.mark();
  const scratch = arena.alloc(32 * EB);
  const sumP = arena.alloc(XB);
  const run = arena.alloc(XB);
  const acc = arena.alloc(XB);
  const total = arena.alloc(XB);
  const out = arena.alloc(PB);
  // per window its sum W_k (XYZZ) and first bit; tiles of one window (ranges of halves) arrive separately, in any order
  const windows = new Map<number, { W: number; shift: number }>();
  return {
    addWindow(win, shift, R, P, flags, S, m) {
      const fl = new Uint8Array(inst.memory.buffer, flags, S).slice();
      k[kn.setInf](sumP);
      k[kn.setInf](run);
      k[kn.setInf](acc);
      for (let j = S - 1; j >= 0; j--) {
        if (fl[j] & 2) k[kn.addAffine](sumP, P + j * PB, scratch);
        if (j === 0) break;
        if (fl[j] & 1) k[kn.addAffine](run, R + j * PB, scratch);
        k[kn.add](acc, run, scratch);
      }
      for (let t = m; t > 1; t >>= 1) k[kn.double](acc, scratch);
      k[kn.add](acc, sumP, scratch);
      const known = windows.get(win);
      if (known !== undefined) k[kn.add](known.W, acc, scratch);
      else {
        const fresh = arena.alloc(XB);
        new Uint8Array(inst.memory.buffer).copyWithin(fresh, acc, acc + XB);
        windows.set(win, { W: fresh, shift });
      }
    },
    finish() {
      k[kn.setInf](total);
      let above: number | undefined;
      for (const { W, shift } of [...windows.values()].sort((a, b) => b.shift - a.shift)) {
        if (above !== undefined) for (let t = shift; t < above; t++) k[kn.double](total, scratch);
        k[kn.add](total, W, scratch);
        above = shift;
      }
      // the lowest window present may start above bit 0 (tiles of empty windows are not added)
      for (let t = 0; t < (above ?? 0); t++) k[kn.double](total, scratch);
      const isInf = k[kn.toAffine](out, total, scratch);
      const result = isInf ? null : readAffine(out);
      arena.release(mark);
      return result;
    },
  };
}
