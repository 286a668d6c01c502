/** MSM kernels below the API: the exact GLV split (bound and identity) on edge and random scalars. */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 } from '../src/index.js';
import { makeRng } from '../src/reference/rng.js';
import { RefCurve } from '../src/reference/curve.js';

const { r, lambda } = bls12_381.params;

before(async () => {
  await bls12_381.init();
});

describe('msm_split_scalars', () => {
  it('s ≡ k1 + k2·λ (mod r) with |k1|, |k2| within the proven GLV bound (< 2^127), LE and BE, in place', () => {
    const [b1, b2] = new RefCurve(bls12_381.params).glvBound;
    const inst = bls12_381.g1.inst;
    const k = inst.exports as Record<string, (...a: number[]) => number>;
    const rng = makeRng(99);
    const scalars: bigint[] = [0n, 1n, 2n, lambda - 1n, lambda, lambda + 1n, lambda * lambda, lambda * (lambda + 1n), r - 1n, r, r + 1n, 2n * r - 1n, 2n * r, (1n << 256n) - 1n, (1n << 255n)];
    while (scalars.length < 400) scalars.push(rng.nextBigint(256));
    for (const endian of ['le', 'be'] as const) {
      const mark = inst.arena.mark();
      const buf = inst.arena.alloc(32 * scalars.length);
      const mem = () => new Uint8Array(inst.memory.buffer);
      scalars.forEach((s, i) => {
        for (let b = 0; b < 32; b++) mem()[buf + 32 * i + (endian === 'le' ? b : 31 - b)] = Number((s >> BigInt(8 * b)) & 0xffn);
      });
      k.msm_split_scalars(buf, buf, scalars.length, endian === 'be' ? 1 : 0);
      // magnitude in bits 0..126, sign in bit 127
      const read = (at: number) => {
        let v = 0n;
        for (let b = 15; b >= 0; b--) v = (v << 8n) | BigInt(mem()[at + b]);
        return v >> 127n ? -(v & ((1n << 127n) - 1n)) : v;
      };
      scalars.forEach((s, i) => {
        const k1 = read(buf + 32 * i);
        const k2 = read(buf + 32 * i + 16);
        assert.equal((((k1 + k2 * lambda) % r) + r) % r, s % r, `${endian} identity for s = ${s}`);
        // the kernel's rounding may be off by one step from the exact rounding: allow one basis vector
        assert.ok((k1 < 0n ? -k1 : k1) <= 2n * b1 + 1n, `${endian} |k1| bound for s = ${s}`);
        assert.ok((k2 < 0n ? -k2 : k2) <= 2n * b2 + 1n, `${endian} |k2| bound for s = ${s}`);
        assert.ok((k1 < 0n ? -k1 : k1) < 1n << 127n && (k2 < 0n ? -k2 : k2) < 1n << 127n, `${endian} halves < 2^127 for s = ${s}`);
      });
      inst.arena.release(mark);
    }
  });
});

describe('memory limits', () => {
  it('a request beyond what the memory can grow to is a typed OutOfMemoryError, and the instance stays usable', async () => {
    const { OutOfMemoryError } = await import('../src/index.js');
    const inst = bls12_381.g1.inst;
    const mark = inst.arena.mark();
    assert.throws(() => inst.arena.alloc(2 ** 32), (e: unknown) => e instanceof OutOfMemoryError && /Wasm memory/.test((e as Error).message), 'typed error');
    inst.arena.release(mark);
    const G = bls12_381.params.G1;
    const r = bls12_381.g1.msmSync([G, G], [2n, 3n]);
    const s = bls12_381.g1.msmSync([G], [5n]);
    assert.ok(r.x === s.x && r.y === s.y && !r.infinity, 'msm still works after the failed allocation');
  });
});
