/** A WindowCombiner over the bigint reference: slow, obviously correct (tests and bring-up). */
import type { RefCurve } from '../reference/curve.js';
import type { WasmField } from '../runtime/field.js';
import type { WindowCombiner } from './program.js';

type Affine = { x: bigint; y: bigint } | null;

export function refCombiner(curve: RefCurve, fp: WasmField, memory: () => ArrayBuffer): () => WindowCombiner<{ x: bigint; y: bigint }> {
  const EB = fp.info.elementBytes;
  const readPoint = (ptr: number) => ({ x: fp.read(ptr), y: fp.read(ptr + EB) });
  return () => {
    const windows: { shift: number; W: Affine }[] = [];
    return {
      addWindow(_k, shift, R, P, flags, S, m) {
        const fl = new Uint8Array(memory(), flags, S).slice();
        let sumP: Affine = null;
        let run: Affine = null;
        let acc: Affine = null;
        for (let j = S - 1; j >= 0; j--) {
          if (fl[j] & 2) sumP = curve.add(sumP, readPoint(P + j * 2 * EB));
          if (j === 0) break;
          if (fl[j] & 1) run = curve.add(run, readPoint(R + j * 2 * EB));
          acc = curve.add(acc, run);
        }
        windows.push({ shift, W: curve.add(sumP, curve.mul(acc, BigInt(m))) });
      },
      finish() {
        let acc: Affine = null;
        for (const { shift, W } of windows) acc = curve.add(acc, curve.mul(W, 1n << BigInt(shift)));
        return acc;
      },
    };
  };
}
