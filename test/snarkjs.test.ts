/**
 * pippin/snarkjs: snarkjs proofs with the engine installed verify with snarkjs's stock verifier
 * (engine uninstalled); every MSM the engine computes equals ffjavascript's own multiExpAffine on
 * the same inputs (crossCheck during proofs, and directly on random and adversarial bases); bad key
 * bases give typed errors naming the section and point; the cache hits, evicts and notices changed
 * bytes; uninstall restores ffjavascript's methods; singleThread bypasses the engine (documented).
 *
 * Keys come from scripts/snarkjs-fixtures.ts (cached in .cache/snarkjs; the first run builds them).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as snarkjs from 'snarkjs';
import * as ffjavascript from 'ffjavascript';
import { installSnarkjsEngine, SnarkjsEngineError, type FfjsCurve, type FfjsGroup, type SnarkjsEngine } from '../src/snarkjs/index.js';
import { splitScalars } from '../src/snarkjs/scalars.js';
import { isPrefix } from '../src/snarkjs/cache.js';
import { buildFixture, terminateCurves, TEST_FIXTURES, type Fixture } from '../scripts/snarkjs-fixtures.js';
import { adversarialBases, adversarialScalars, ff, FIELDS, le, modpow, mont, rng } from './helpers/snarkjs.js';

let fixtures: Fixture[];
let curves: Record<'bn128' | 'bls12381', FfjsCurve>;
let stock: Record<'bn128' | 'bls12381', { G1: FfjsGroup['multiExpAffine']; G2: FfjsGroup['multiExpAffine'] }>;

before(async () => {
  fixtures = [];
  for (const spec of TEST_FIXTURES) fixtures.push(await buildFixture(spec));
  const bn = await ff.buildBn128();
  const bls = await ff.buildBls12381();
  curves = { bn128: bn, bls12381: bls };
  stock = {
    bn128: { G1: bn.G1.multiExpAffine, G2: bn.G2.multiExpAffine },
    bls12381: { G1: bls.G1.multiExpAffine, G2: bls.G2.multiExpAffine },
  };
});

after(async () => {
  await terminateCurves();
});

describe('snarkjs proofs with the engine', () => {
  test('Groth16 (BN254, BLS12-381) and PLONK (BN254): every MSM equals stock, every proof verifies with stock snarkjs', async () => {
    const calls: string[] = [];
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128', 'bls12381'], crossCheck: true, onCall: (r) => calls.push(`${r.curve} ${r.group} ${r.label} ${r.cache}`) });
    const proofs: { vkey: unknown; proof: unknown; publicSignals: unknown; protocol: 'groth16' | 'plonk'; name: string }[] = [];
    try {
      for (const f of fixtures) {
        for (const protocol of f.spec.protocols) {
          for (let k = 0; k < 2; k++) {
            const { proof, publicSignals } = await snarkjs[protocol].prove(f.zkey[protocol]!, f.wtns);
            proofs.push({ vkey: f.vkey[protocol], proof, publicSignals, protocol, name: `${f.spec.name} ${protocol} #${k}` });
          }
        }
      }
      const s = engine.stats();
      // Groth16: A, B1, C, H on G1 and B2 on G2 per proof; PLONK: nine G1 commitments
      assert.equal(s.calls.G2, 2 * 2, 'two Groth16 proofs per curve, one G2 MSM each');
      assert.equal(s.calls.G1, 2 * 4 + 2 * 4 + 2 * 9);
      assert.equal(s.crossChecks, s.calls.G1 + s.calls.G2);
      assert.equal(s.stockCalls, 0);
      // the second proof with one key finds every base set in the cache
      const g16 = calls.filter((c) => c.startsWith('bn128') && /multiexp/.test(c));
      assert.deepEqual(g16.slice(5).map((c) => c.endsWith('hit')), [true, true, true, true, true], g16.join('\n'));
      assert.ok(s.cache.hits >= 10 && s.cache.misses > 0, JSON.stringify(s.cache));
      assert.deepEqual(engine.status().map((x) => x.active), [true, true]);
    } finally {
      await engine.uninstall();
    }
    for (const c of ['bn128', 'bls12381'] as const) {
      assert.equal(curves[c].G1.multiExpAffine, stock[c].G1, 'uninstall restores G1');
      assert.equal(curves[c].G2.multiExpAffine, stock[c].G2, 'uninstall restores G2');
    }
    for (const p of proofs) {
      assert.equal(await snarkjs[p.protocol].verify(p.vkey, p.publicSignals, p.proof), true, p.name);
    }
    // the verifier can fail: a proof with a public signal changed is rejected
    const bad = proofs[0];
    const signals = [...(bad.publicSignals as string[])];
    signals[0] = String(BigInt(signals[0]) + 1n);
    assert.equal(await snarkjs.groth16.verify(bad.vkey, signals, bad.proof), false);
  });

  test('singleThread: snarkjs builds its own curve and bypasses the engine (documented)', async () => {
    const f = fixtures[0];
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'] });
    try {
      await snarkjs.groth16.prove(f.zkey.groth16!, f.wtns, undefined, { singleThread: true });
      assert.equal(engine.stats().calls.G1, 0);
      await snarkjs.groth16.prove(f.zkey.groth16!, f.wtns);
      assert.equal(engine.stats().calls.G1, 4);
    } finally {
      await engine.uninstall();
    }
  });
});

describe('engine MSMs against ffjavascript', () => {
  for (const c of ['bn128', 'bls12381'] as const) {
    for (const g of ['G1', 'G2'] as const) {
      test(`${c} ${g}: random and adversarial bases and scalars equal stock`, async () => {
        const next = rng(c.length * 31 + g.length);
        const G = curves[c][g];
        const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: [c], minPoints: 1 });
        try {
          for (const n of [1, 2, 70, 300]) {
            const bases = adversarialBases(G, n, next);
            for (const scalars of [adversarialScalars(FIELDS[c].r, n, next), new Uint8Array(32 * n), le(1n, 32 * n).map((_, i) => (i % 32 === 0 ? 1 : 0))]) {
              const mine = await G.multiExpAffine(bases, scalars);
              const theirs = await stock[c][g].call(G, bases, scalars);
              assert.equal(mine.length, theirs.length, 'Jacobian, as stock');
              assert.ok(G.eq(mine, theirs), `${c} ${g} n=${n}`);
            }
          }
          // all bases at infinity
          const inf = new Uint8Array(2 * G.F.n8 * 5);
          assert.ok(G.eq(await G.multiExpAffine(inf, adversarialScalars(FIELDS[c].r, 5, next)), G.zero));
          // a second copy of the same bases is a cache hit, a changed byte a miss
          const bases = adversarialBases(G, 40, next);
          const scalars = adversarialScalars(FIELDS[c].r, 40, next);
          await G.multiExpAffine(bases, scalars);
          const before = engine.stats().cache;
          await G.multiExpAffine(bases.slice(), scalars);
          assert.equal(engine.stats().cache.hits, before.hits + 1);
          // a prefix of cached bases (PLONK's SRS prefixes) is a hit too
          assert.ok(G.eq(await G.multiExpAffine(bases.subarray(0, 20 * 2 * G.F.n8), scalars.subarray(0, 640)), await stock[c][g].call(G, bases.subarray(0, 20 * 2 * G.F.n8), scalars.subarray(0, 640))));
          assert.equal(engine.stats().cache.hits, before.hits + 2);
          const changed = bases.slice();
          changed.set(adversarialBases(G, 3, next).subarray(2 * 2 * G.F.n8), 10 * 2 * G.F.n8);
          assert.ok(G.eq(await G.multiExpAffine(changed, scalars), await stock[c][g].call(G, changed, scalars)));
          assert.equal(engine.stats().cache.misses, before.misses + 1);
        } finally {
          await engine.uninstall();
        }
      });
    }
  }

  test('concurrent calls (G1 and G2, both curves, new and cached bases) equal stock; new bases convert once', async () => {
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128', 'bls12381'], minPoints: 1 });
    try {
      const next = rng(4242);
      const jobs: { G: FfjsGroup; c: 'bn128' | 'bls12381'; g: 'G1' | 'G2'; bases: Uint8Array; scalars: Uint8Array }[] = [];
      for (const c of ['bn128', 'bls12381'] as const) {
        for (const g of ['G1', 'G2'] as const) {
          const G = curves[c][g];
          const bases = adversarialBases(G, 150, next);
          for (let k = 0; k < 3; k++) jobs.push({ G, c, g, bases: k ? bases.slice() : bases, scalars: adversarialScalars(FIELDS[c].r, 150, next) });
        }
      }
      const mine = await Promise.all(jobs.map((j) => j.G.multiExpAffine(j.bases, j.scalars)));
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i];
        assert.ok(j.G.eq(mine[i], await stock[j.c][j.g].call(j.G, j.bases, j.scalars)), `${j.c} ${j.g} job ${i}`);
      }
      const s = engine.stats();
      assert.deepEqual([s.cache.misses, s.cache.hits, s.cache.entries], [4, 8, 4], JSON.stringify(s.cache));
      // the next round, all at once, hits the cache
      await Promise.all(jobs.map((j) => j.G.multiExpAffine(j.bases, j.scalars)));
      assert.equal(engine.stats().cache.hits, 8 + jobs.length);
    } finally {
      await engine.uninstall();
    }
  });

  test('below minPoints, or with other scalar widths, calls run ffjavascript\'s own method; BigBuffers are taken', async () => {
    const G = curves.bn128.G1;
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'], minPoints: 8 });
    try {
      const next = rng(5);
      const bases = adversarialBases(G, 7, next);
      const s7 = adversarialScalars(FIELDS.bn128.r, 7, next);
      assert.ok(G.eq(await G.multiExpAffine(bases, s7), await stock.bn128.G1.call(G, bases, s7)));
      const b8 = adversarialBases(G, 8, next);
      const s16 = new Uint8Array(16 * 8).fill(3);
      assert.ok(G.eq(await G.multiExpAffine(b8, s16), await stock.bn128.G1.call(G, b8, s16)));
      assert.deepEqual([engine.stats().stockCalls, engine.stats().calls.G1], [2, 0]);
      // ffjavascript's BigBuffer (snarkjs passes some PLONK polynomials so) is taken as its bytes
      const BigBuffer = (ffjavascript as unknown as { BigBuffer: new (n: number) => { set(a: Uint8Array, o: number): void } }).BigBuffer;
      const b9 = adversarialBases(G, 9, next);
      const s9 = adversarialScalars(FIELDS.bn128.r, 9, next);
      const big = new BigBuffer(s9.length);
      big.set(s9, 0);
      assert.ok(G.eq(await G.multiExpAffine(b9, big), await stock.bn128.G1.call(G, b9, s9)));
      assert.deepEqual([engine.stats().stockCalls, engine.stats().calls.G1], [2, 1]);
    } finally {
      await engine.uninstall();
    }
  });
});

describe('bad key bases', () => {
  /** n valid bases with entry `at` replaced by (x, y) given as integers. */
  function withPoint(c: 'bn128' | 'bls12381', n: number, at: number, x: bigint, y: bigint): Uint8Array {
    const G = curves[c].G1;
    const bases = adversarialBases(G, n, rng(9));
    const f = FIELDS[c];
    bases.set(mont(f, x), at * 2 * f.n8);
    bases.set(mont(f, y), at * 2 * f.n8 + f.n8);
    return bases;
  }

  test('a point off the curve: SnarkjsEngineError naming the section and the point', async () => {
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'], minPoints: 1 });
    try {
      const bases = withPoint('bn128', 100, 42, 1n, 1n);
      await assert.rejects(curves.bn128.G1.multiExpAffine(bases, new Uint8Array(3200).fill(1), undefined, 'multiexp A'), (e: unknown) => {
        assert.ok(e instanceof SnarkjsEngineError, String(e));
        assert.equal(e.index, 42);
        assert.match(e.message, /bn128 G1 bases of "multiexp A".*point 42/);
        assert.equal((e.reason as Error).name, 'NotOnCurveError');
        return true;
      });
    } finally {
      await engine.uninstall();
    }
  });

  test('G2 (both curves): a point off the curve in a cached-to-be set is rejected, nothing is cached', async () => {
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128', 'bls12381'], minPoints: 1 });
    try {
      for (const c of ['bn128', 'bls12381'] as const) {
        const G = curves[c].G2;
        const f = FIELDS[c];
        const bases = adversarialBases(G, 30, rng(3));
        for (let k = 0; k < 4; k++) bases.set(mont(f, 1n), 7 * 2 * G.F.n8 + k * f.n8);
        const scalars = new Uint8Array(32 * 30).fill(5);
        for (let attempt = 0; attempt < 2; attempt++) {
          await assert.rejects(G.multiExpAffine(bases, scalars, undefined, 'multiexp B2'), (e: unknown) => {
            assert.ok(e instanceof SnarkjsEngineError, String(e));
            assert.equal(e.index, 7);
            assert.match(e.message, new RegExp(`${c} G2 bases of "multiexp B2"`));
            return true;
          });
        }
      }
      assert.equal(engine.stats().cache.entries, 0);
    } finally {
      await engine.uninstall();
    }
  });

  test('a point outside the subgroup (BLS12-381 G1): accepted by on-curve, rejected by validate "full"', async () => {
    const f = FIELDS.bls12381;
    // the first x whose x³ + 4 is a square gives a point of E(F_p), almost surely outside the r-subgroup
    let x = 1n;
    let y = 0n;
    for (;; x++) {
      const rhs = (x ** 3n + 4n) % f.p;
      y = modpow(rhs, (f.p + 1n) / 4n, f.p);
      if ((y * y) % f.p === rhs) break;
    }
    const bases = withPoint('bls12381', 80, 17, x, y);
    const scalars = new Uint8Array(32 * 80).fill(2);
    const full = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bls12381'], minPoints: 1, validate: 'full' });
    try {
      await assert.rejects(curves.bls12381.G1.multiExpAffine(bases, scalars, undefined, 'multiexp C'), (e: unknown) => {
        assert.ok(e instanceof SnarkjsEngineError, String(e));
        assert.equal(e.index, 17);
        assert.equal((e.reason as Error).name, 'NotInSubgroupError');
        return true;
      });
    } finally {
      await full.uninstall();
    }
    const onCurve = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bls12381'], minPoints: 1 });
    try {
      await curves.bls12381.G1.multiExpAffine(bases, scalars);
      assert.equal(onCurve.stats().calls.G1, 1);
    } finally {
      await onCurve.uninstall();
    }
  });
});

describe('engine lifecycle and cache', () => {
  test('eviction within cacheBytes, clearCache, status, double install, options', async () => {
    const G = curves.bn128.G1;
    // one entry of 200 points: 200 × 64 bytes copy + prepared bytes ≈ 13 + 13 KiB; the budget holds one
    const engine = await installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'], minPoints: 1, cacheBytes: 40_000 });
    let e2: SnarkjsEngine | undefined;
    try {
      const next = rng(77);
      const a = adversarialBases(G, 200, next);
      const b = adversarialBases(G, 200, next);
      const s = adversarialScalars(FIELDS.bn128.r, 200, next);
      await G.multiExpAffine(a, s);
      await G.multiExpAffine(b, s);
      assert.equal(engine.stats().cache.evictions, 1);
      assert.equal(engine.stats().cache.entries, 1);
      assert.ok(engine.stats().cache.bytes <= 40_000);
      assert.ok(G.eq(await G.multiExpAffine(a, s), await stock.bn128.G1.call(G, a, s)));
      assert.equal(engine.stats().cache.misses, 3);
      engine.clearCache();
      assert.equal(engine.stats().cache.entries, 0);
      await assert.rejects(installSnarkjsEngine({ ffjavascript: ff, curves: ['bn128'] }), SnarkjsEngineError);
      // the shared curve replaced (a second ffjavascript import, or terminate): reported
      const g = globalThis as { curve_bn128?: unknown };
      const saved = g.curve_bn128;
      g.curve_bn128 = null;
      assert.deepEqual(engine.status()[0].active, false);
      assert.match(engine.status()[0].reason!, /null/);
      g.curve_bn128 = saved;
      assert.deepEqual(engine.status()[0].active, true);
    } finally {
      await engine.uninstall();
      await e2?.uninstall();
    }
    await engine.uninstall(); // idempotent
    assert.equal(engine.status()[0].active, false);
    for (const bad of [{}, { ffjavascript: ff, curves: ['bn254'] }, { ffjavascript: ff, validate: 'subgroup' }, { ffjavascript: ff, cacheBytes: -1 }, { ffjavascript: ff, extra: 1 }]) {
      await assert.rejects(installSnarkjsEngine(bad as never), { name: 'InvalidOptionError' }, JSON.stringify(Object.keys(bad)));
    }
  });

  test('package.json exports ./snarkjs (before ./*) from dist/snarkjs, built from src/snarkjs/index.ts', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, { default: string; types: string }> };
    const keys = Object.keys(pkg.exports);
    assert.ok(keys.indexOf('./snarkjs') >= 0 && keys.indexOf('./snarkjs') < keys.indexOf('./*'), keys.join(' '));
    assert.deepEqual(pkg.exports['./snarkjs'], { types: './dist/snarkjs/index.d.ts', default: './dist/snarkjs/index.js' });
    assert.ok(existsSync(new URL('../src/snarkjs/index.ts', import.meta.url)));
  });

  test('scalar split and prefix comparison', () => {
    const s = new Uint8Array(32 * 5);
    s[32] = 1;
    s[64] = 0xff;
    s[65] = 0xff;
    s[96 + 2] = 1;
    s[128 + 31] = 0x30;
    assert.deepEqual(splitScalars(s), { zeros: 1, ones: 1, smalls: 1, bigs: 2, maxBits: 254 });
    const a = new Uint8Array(301).map((_, i) => i * 7);
    assert.equal(isPrefix(a.subarray(0, 200), a), true);
    assert.equal(isPrefix(a.subarray(1, 201), a), false);
    const b = a.slice();
    b[150] ^= 1;
    assert.equal(isPrefix(b.subarray(0, 200), a), false);
    assert.equal(isPrefix(a, a.subarray(0, 300)), false);
  });
});
