/**
 * The generic MSM core (GLV split, scheduling, batch-affine accumulation and reduction) on every
 * curve in the registry, against the arkworks vectors (vectors/<curve>.json). Codecs and the XYZZ
 * combine are curve-kernel work; here points are written directly and windows are combined by the
 * bigint reference, so this isolates the core.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { devCurveModule } from '../src/testing/dev-instance.js';
import { curves, registry, type CurveName } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { allocInputs, msmProgram, type G1MsmContext } from '../src/msm/g1.js';
import { runLocal } from '../src/runtime/executor.js';
import { refCombiner } from '../src/msm/combine-ref.js';

interface VectorCase {
  name: string;
  n: number;
  points: ({ x: string; y: string } | null)[];
  scalars: string[];
  expected: { x: string; y: string } | null;
}

// 30-bit limbs, and 64-bit limbs (the wide64 backend's layout; wide-arithmetic helpers polyfilled in Node)
for (const [name, params] of Object.entries(curves)) for (const fpSpec of [{ w: 30, mul: 'karatsuba' }, { w: 64, mul: 'cios-loop' }] as const) {
  describe(`MSM core on ${name} (fp w = ${fpSpec.w}) vs arkworks`, async () => {
    const vectors = JSON.parse(readFileSync(new URL(`../vectors/${name}.json`, import.meta.url), 'utf8')) as { cases: VectorCase[] };
    const inst = await devCurveModule({ curve: registry[name as CurveName], fp: fpSpec });
    const ref = new RefCurve(params);
    const fp = inst.fields.fp;
    const EB = fp.info.elementBytes;
    const ctx: G1MsmContext = { inst, EB, windowTable: [], makeCombiner: refCombiner(ref, fp, () => inst.memory.buffer) };
    for (const vc of vectors.cases) {
      it(`${vc.name} (n = ${vc.n})`, () => {
        for (const c of [undefined, 4, 9]) {
          const mark = inst.arena.mark();
          const regions = allocInputs(ctx, vc.n);
          const mem = new Uint8Array(inst.memory.buffer);
          vc.points.forEach((P, i) => {
            mem[regions.inf + i] = P === null ? 1 : 0;
            if (P) {
              fp.write(regions.points + i * 2 * EB, BigInt(P.x));
              fp.write(regions.points + i * 2 * EB + EB, BigInt(P.y));
            }
          });
          const m2 = new Uint8Array(inst.memory.buffer);
          vc.scalars.forEach((s, i) => {
            let v = BigInt(s);
            for (let b = 0; b < 32; b++, v >>= 8n) m2[regions.scalars + 32 * i + b] = Number(v & 0xffn);
          });
          const force = c ? { windowBits: c, segments: Math.min(2 ** (c - 1), 8) } : {};
          const { result } = runLocal(inst, msmProgram(ctx, regions, vc.n, { scalarsBigEndian: false, threads: 1, ...force }));
          inst.arena.release(mark);
          const want = vc.expected === null ? null : { x: BigInt(vc.expected.x), y: BigInt(vc.expected.y) };
          assert.ok(ref.eq(result, want), `${name} ${vc.name}, c = ${c ?? 'auto'}`);
        }
      });
    }
  });
}
