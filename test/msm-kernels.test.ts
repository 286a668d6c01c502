/** MSM kernels below the API: the exact GLV split (bound and identity) on edge and random scalars. */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bls12_381 } from '../src/index.js';
import { makeRng } from '../src/reference/rng.js';

const { r, lambda } = bls12_381.params;

before(async () => {
  await bls12_381.init();
});

describe('msm_split_scalars', () => {
  it('s ≡ k1 + k2·λ (mod r) with 0 ≤ k1 < λ and 0 ≤ k2 ≤ λ + 1, LE and BE, in place', () => {
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
      const read = (at: number) => {
        let v = 0n;
        for (let b = 15; b >= 0; b--) v = (v << 8n) | BigInt(mem()[at + b]);
        return v;
      };
      scalars.forEach((s, i) => {
        const k1 = read(buf + 32 * i);
        const k2 = read(buf + 32 * i + 16);
        assert.equal((k1 + k2 * lambda) % r, s % r, `${endian} identity for s = ${s}`);
        assert.ok(k1 < lambda, `${endian} k1 < λ for s = ${s}`);
        assert.ok(k2 <= lambda + 1n, `${endian} k2 ≤ λ + 1 for s = ${s}`);
      });
      inst.arena.release(mark);
    }
  });
});
