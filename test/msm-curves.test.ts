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
import { allocInputs, msmProgram } from '../src/msm/program.js';
import { groupContext, type GroupContext } from '../src/msm/group.js';
import { packedElementBytes } from '../src/abi/layout.js';
import { makeRng } from '../src/reference/rng.js';
import { modInv as modInverse } from '../src/reference/arith.js';
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
    const PK = packedElementBytes(fp.info);
    const base = groupContext('g1', { inst, scratchBytes: {}, windowTable: [], cofactor: params.h1 });
    const unpacked: GroupContext<{ x: bigint; y: bigint }> = { ...base, packedBytes: undefined, makeCombiner: refCombiner(ref, fp, () => inst.memory.buffer) };
    const packed: GroupContext<{ x: bigint; y: bigint }> = { ...unpacked, packedBytes: PK };
    it(`fp_pack / fp_unpack: ${PK}-byte packing is the element's value in little-endian bytes, and back`, () => {
      const p = BigInt(params.p);
      const rng = makeRng(11);
      const values = [0n, 1n, p - 1n, p, p + 1n, 2n * p - 1n, (1n << BigInt(fp.info.w)) - 1n];
      for (let j = 0; j < 20; j++) values.push(rng.nextBelow(2n * p));
      const mark = inst.arena.mark();
      const at = inst.arena.alloc(EB), out = inst.arena.alloc(PK + 8), back = inst.arena.alloc(EB);
      const k = inst.exports as Record<string, (out: number, x: number) => void>;
      for (const v of values) {
        fp.writeLimbs(at, v);
        new Uint8Array(inst.memory.buffer).fill(0xa5, out, out + PK + 8);
        k.fp_pack(out, at);
        const bytes = new Uint8Array(inst.memory.buffer, out, PK + 8);
        let got = 0n;
        for (let b = PK - 1; b >= 0; b--) got = (got << 8n) | BigInt(bytes[b]);
        assert.equal(got, v, `pack(0x${v.toString(16)})`);
        assert.ok(bytes.subarray(PK).every((x) => x === 0xa5), 'pack writes exactly PK bytes');
        k.fp_unpack(back, out);
        assert.equal(fp.readLimbs(back), v, `unpack(pack(0x${v.toString(16)}))`);
      }
      inst.arena.release(mark);
    });
    it('g1_batch_touch: writes only the XOR of one word per 64 bytes of each pair\'s a operand (and its last word) at sink', () => {
      const mark = inst.arena.mark();
      const rng = makeRng(12);
      const count = 5;
      const pairs = inst.arena.alloc(16 * count), sink = inst.arena.alloc(8), area = inst.arena.alloc(count * 4 * EB + 64);
      const mem = new Uint8Array(inst.memory.buffer);
      for (let b = area; b < area + count * 4 * EB + 64; b++) mem[b] = Number(rng.nextBelow(256n));
      mem.fill(0xa5, sink, sink + 8);
      const view = new DataView(inst.memory.buffer);
      let want = 0;
      for (let j = 0; j < count; j++) {
        const a = area + j * (2 * EB + 20); // distinct points, not aligned to cache lines
        for (let f = 0; f < 4; f++) view.setUint32(pairs + 16 * j + 4 * f, f === 1 ? a : 0, true); // {dst, a, b, info}
        for (let off = 0; off < 2 * EB - 4; off += 64) want ^= view.getUint32(a + off, true);
        want ^= view.getUint32(a + 2 * EB - 4, true);
      }
      const before = mem.slice(area, area + count * 4 * EB + 64);
      (inst.exports as Record<string, (p: number, n: number, s: number) => void>).g1_batch_touch(pairs, count, sink);
      assert.equal(view.getUint32(sink, true), want >>> 0);
      assert.deepEqual([...new Uint8Array(inst.memory.buffer, sink + 4, 4)], [0xa5, 0xa5, 0xa5, 0xa5], 'writes 4 bytes');
      assert.deepEqual(new Uint8Array(inst.memory.buffer, area, count * 4 * EB + 64), before, 'reads the points only');
      inst.arena.release(mark);
    });
    it('fp_sub_lazy / fp_neg_sum_lazy: ≡ x − y and −(x + y), normalized, < 4p; a product of one stays < 2p and exact', () => {
      const p = BigInt(params.p);
      const rng = makeRng(12);
      const edge = [0n, 1n, p - 1n, p, 2n * p - 1n];
      const pairs: [bigint, bigint][] = edge.flatMap((x) => edge.map((y): [bigint, bigint] => [x, y]));
      for (let j = 0; j < 30; j++) pairs.push([rng.nextBelow(2n * p), rng.nextBelow(2n * p)]);
      const mark = inst.arena.mark();
      const [x, y, z, w] = [0, 1, 2, 3].map(() => inst.arena.alloc(EB));
      const k = inst.exports as Record<string, (out: number, a: number, b: number) => void>;
      const mod = (v: bigint) => ((v % p) + p) % p;
      for (const [a, b] of pairs) {
        fp.writeLimbs(x, a);
        fp.writeLimbs(y, b);
        for (const [op, want, top] of [['sub_lazy', mod(a - b), 4n * p - 1n], ['neg_sum_lazy', mod(-a - b), 4n * p]] as const) {
          k[`fp_${op}`](z, x, y);
          const got = fp.readLimbs(z);
          assert.equal(mod(got), want, `${op}(0x${a.toString(16)}, 0x${b.toString(16)}) mod p`);
          assert.ok(got <= top, `${op} result < 4p (got 0x${got.toString(16)})`);
          // the product with the largest input: x·R⁻¹ stays < 2p and exact
          fp.writeLimbs(w, 2n * p - 1n);
          k.fp_mul(w, z, w);
          const prod = fp.readLimbs(w);
          assert.ok(prod < 2n * p, `${op}: product < 2p`);
          assert.equal(mod(prod), mod(got * (2n * p - 1n) * modInverse(fp.R % p, p)), `${op}: product exact`);
        }
      }
      inst.arena.release(mark);
    });
    it('fp_sub_sum: x − y − z normalized in [0, 2p), aliasing out = x; fp_is_zero_lazy: exactly 0, p, 2p, 3p in [0, 4p)', () => {
      const p = BigInt(params.p);
      const rng = makeRng(13);
      const edge = [0n, 1n, p - 1n, p, p + 1n, 2n * p - 1n];
      const triples: [bigint, bigint, bigint][] = edge.flatMap((a) => edge.flatMap((b) => edge.map((c): [bigint, bigint, bigint] => [a, b, c])));
      for (let j = 0; j < 40; j++) triples.push([rng.nextBelow(2n * p), rng.nextBelow(2n * p), rng.nextBelow(2n * p)]);
      const mark = inst.arena.mark();
      const [x, y, z] = [0, 1, 2].map(() => inst.arena.alloc(EB));
      const k = inst.exports as Record<string, (...args: number[]) => number>;
      const mod = (v: bigint) => ((v % p) + p) % p;
      for (const [a, b, c] of triples) {
        fp.writeLimbs(x, a);
        fp.writeLimbs(y, b);
        fp.writeLimbs(z, c);
        k.fp_sub_sum(x, x, y, z);
        const got = fp.readLimbs(x);
        assert.ok(got < 2n * p, `sub_sum(0x${a.toString(16)}, 0x${b.toString(16)}, 0x${c.toString(16)}) < 2p`);
        assert.equal(mod(got), mod(a - b - c), 'sub_sum ≡ x − y − z');
      }
      // its range: [0, 4p) where g1_batch_add's differences are lazy (30-bit limbs), else [0, 2p)
      const range = fpSpec.w <= 30 ? 4n * p : 2n * p;
      const zeroes = [0n, p, 2n * p, 3n * p].filter((v) => v < range);
      const others = [1n, p - 1n, p + 1n, 2n * p - 1n, 2n * p + 1n, 3n * p - 1n, 3n * p + 1n, 4n * p - 1n, (p >> 1n) << 1n];
      for (let j = 0; j < 20; j++) others.push(rng.nextBelow(range));
      // values sharing the top limb of a multiple of p but differing below it
      for (const m of zeroes) others.push(m ^ 1n, m ^ (1n << BigInt(fp.info.w)));
      for (const v of [...zeroes, ...others].filter((v) => v < range)) {
        fp.writeLimbs(x, v);
        assert.equal(k.fp_is_zero_lazy(x), mod(v) === 0n ? 1 : 0, `is_zero_lazy(0x${v.toString(16)})`);
      }
      inst.arena.release(mark);
    });
    it('chords whose lazy difference has the top limb of a multiple of p without being ≡ 0 (false zero candidates), b packed and unpacked', () => {
      // curve points whose x in Montgomery form (x·R) differ by a few units, so x_b − x_a + 2p (or
      // x_a − x_b + 2p) shares the top limb of 2p: the forward kernel flags them, the exact test says
      // no, and the products run apart
      const F = ref.Fp;
      const rng = makeRng(29);
      const step = F.inv(F.mod(fp.R));
      const pts: { x: bigint; y: bigint }[] = [];
      for (let x = rng.nextBelow(F.p); pts.length < 6; x = F.add(x, step)) {
        const y = F.sqrt(F.add(F.add(F.mul(F.sqr(x), x), F.mul(ref.a, x)), ref.b));
        if (y !== undefined) pts.push({ x, y: pts.length % 2 ? F.neg(y) : y });
      }
      // equal scalars put every point in the same buckets; the last two scalars differ
      const scalars = [5n, 5n, 5n, 5n, 9n, 9n];
      // the defined result for points outside the subgroup: Σ k1·P + k2·φ(P) with the GLV split
      let want: { x: bigint; y: bigint } | null = null;
      pts.forEach((P, i) => {
        const { k1, k2 } = ref.glvSplit(scalars[i]);
        want = ref.add(want, ref.add(ref.mul(P, k1), ref.mul(ref.endo(P), k2)));
      });
      for (const [c, ctx] of [[4, packed], [4, unpacked], [9, packed]] as const) {
        const mark = inst.arena.mark();
        const regions = allocInputs(ctx, pts.length);
        const mem = new Uint8Array(inst.memory.buffer);
        pts.forEach((P, i) => {
          mem[regions.inf + i] = 0;
          fp.write(regions.points + i * 2 * EB, P.x);
          fp.write(regions.points + i * 2 * EB + EB, P.y);
          let v = scalars[i];
          for (let b = 0; b < 32; b++, v >>= 8n) mem[regions.scalars + 32 * i + b] = Number(v & 0xffn);
        });
        const { result } = runLocal(inst, msmProgram(ctx, regions, pts.length, { scalarsBigEndian: false, threads: 1, windowBits: c, segments: 8 }));
        inst.arena.release(mark);
        assert.ok(ref.eq(result, want), `${name}: c = ${c}, ${ctx.packedBytes ? 'packed' : 'unpacked'} triples`);
      }
    });
    for (const vc of vectors.cases) {
      it(`${vc.name} (n = ${vc.n})`, () => {
        // c = 14: a window far wider than the vectors would pick (8192 buckets, 64 reduction segments)
        for (const [c, ctx] of [[undefined, packed], [undefined, unpacked], [4, packed], [9, unpacked], [9, packed], [14, packed]] as const) {
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
          const force = c ? { windowBits: c, segments: Math.min(2 ** (c - 1), c > 9 ? 64 : 8) } : {};
          const { result } = runLocal(inst, msmProgram(ctx, regions, vc.n, { scalarsBigEndian: false, threads: 1, ...force }));
          inst.arena.release(mark);
          const want = vc.expected === null ? null : { x: BigInt(vc.expected.x), y: BigInt(vc.expected.y) };
          assert.ok(ref.eq(result, want), `${name} ${vc.name}, c = ${c ?? 'auto'}, ${ctx.packedBytes ? 'packed' : 'unpacked'} triples`);
        }
      });
    }
  });
}
