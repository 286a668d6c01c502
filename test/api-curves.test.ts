/**
 * The public API on every curve of the registry: MSM of the arkworks vectors through `<curve>.g1.msm` (objects,
 * full validation) and the curve's byte formats against arkworks' own serialized bytes.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { curves } from '../src/index.js';
import type { G1Affine } from '../src/index.js';
import { curveNames, vectorFormats } from './helpers/registry.js';

interface Vectors {
  cases: { name: string; n: number; points: ({ x: string; y: string } | null)[]; scalars: string[]; expected: { x: string; y: string } | null }[];
  serialization: { point: { x: string; y: string } | null; uncompressed: string; compressed: string }[];
}

const entries = curveNames.map((name) => {
  const [uncompressed, compressed] = vectorFormats(name);
  return { curve: curves[name], name, uncompressed, compressed };
});

const hex = (s: string) => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
const toHex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
const same = (got: G1Affine, want: { x: string; y: string } | null) =>
  want === null ? got.infinity : !got.infinity && got.x === BigInt(want.x) && got.y === BigInt(want.y);

for (const e of entries) {
  describe(`${e.name} public API vs arkworks`, () => {
    const v = JSON.parse(readFileSync(new URL(`../vectors/${e.name}.json`, import.meta.url), 'utf8')) as Vectors;
    before(async () => {
      await e.curve.init();
    });
    it('MSM of every vector case (objects, full validation)', () => {
      for (const vc of v.cases) {
        const pts = vc.points.map((P) => (P === null ? null : { x: BigInt(P.x), y: BigInt(P.y) }));
        const got = e.curve.g1.msmSync(pts, vc.scalars.map((s) => BigInt(s)));
        assert.ok(same(got, vc.expected), `${e.name} ${vc.name}`);
      }
    });
    it("decodes and re-encodes arkworks' serialized bytes", () => {
      const g1 = e.curve.g1 as unknown as {
        msmSync(p: Uint8Array, s: bigint[], o: { pointFormat: string }): G1Affine;
        toBytes(p: G1Affine | null, f: string): Uint8Array;
      };
      for (const sample of v.serialization) {
        for (const [fmt, bytes] of [[e.uncompressed, sample.uncompressed], [e.compressed, sample.compressed]] as const) {
          const got = g1.msmSync(hex(bytes), [1n], { pointFormat: fmt });
          assert.ok(same(got, sample.point), `${e.name} decode ${fmt} ${bytes.slice(0, 16)}…`);
          const P = sample.point === null ? null : { x: BigInt(sample.point.x), y: BigInt(sample.point.y), infinity: false };
          assert.equal(toHex(g1.toBytes(P, fmt)), bytes, `${e.name} encode ${fmt}`);
        }
      }
    });
  });
}
