/**
 * Pairings (BLS12-381, or BN254 with --curve bn254), one process, one thread, interleaved: pippin (src/msm/pairing.ts on the
 * backend init() takes: i32 in Node, wide64 on Bun), @noble/curves 2.4.0 and mcl-wasm 2.4.1. Every
 * result is cross-checked before timing (the checks' booleans of all three, pippin's e(P, Q) equal to
 * noble's). Per round each case runs each library in turn (rotating order), `--iters` calls timed
 * together; the table gives the median over rounds, ms per call, and the peers' time over pippin's.
 *
 *   npm run bench:pairing -- [--curve bls12-381|bn254] [--rounds 7] [--iters 5]
 *
 * Cases: pairingCheck with 1 pair (e(P, Q) = 1?, false) and 2 pairs (e(aP, Q)·e(−P, aQ) = 1, true);
 * 2 pairs with both G2 points prepared (pippin prepareG2, mcl precomputedMillerLoop2, noble's own
 * per-point precomputation cache); the Miller loop of 1 pair; the final exponentiation alone.
 * pippin's millerLoop/finalExp include writing and reading the F_p¹² value (24 conversions).
 */
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn } from '@noble/curves/bn254.js';
import mcl from 'mcl-wasm';
import { bls12_381, bn254 } from '../src/index.js';
import { groupContextOf } from '../src/api/group.js';
import type { G1AffineValue } from '../src/msm/group.js';
import { Pairing, type Fp12 } from '../src/msm/pairing.js';
import { registry } from '../src/curves/index.js';
import { holdMclCurve } from './peers/mcl.js';
import { intFlag, parseFlags, runCli } from '../src/cli-args.js';

const USAGE = 'usage: npm run bench:pairing -- [--curve bls12-381|bn254] [--rounds 7] [--iters 5]';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
type NP1 = InstanceType<typeof nobleBls.G1.Point>;
type NP2 = InstanceType<typeof nobleBls.G2.Point>;

runCli('bench:pairing', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { curve: { type: 'string' }, rounds: { type: 'string' }, iters: { type: 'string' } });
  const rounds = intFlag('rounds', values.rounds, 7, 1, 100);
  const iters = intFlag('iters', values.iters, 5, 1, 1000);
  const name = values.curve ?? 'bls12-381';
  if (name !== 'bls12-381' && name !== 'bn254') throw new Error(`bench:pairing: --curve ${name}: bls12-381 or bn254`);
  const api = name === 'bn254' ? bn254 : bls12_381;
  // one noble type for both curves (their point and Fp12 APIs are the same)
  const noble = (name === 'bn254' ? nobleBn : nobleBls) as unknown as typeof nobleBls;
  await api.init();
  const release = await holdMclCurve(name);
  const pr = new Pairing(groupContextOf<G1AffineValue>(api.g1), registry[name].g2.pairing!);
  const F12 = noble.fields.Fp12;

  // inputs: P = [s]G1, Q = [t]G2, a; the 2-pair check e(aP, Q)·e(−P, aQ) = 1
  const s = 0x1234567890abcdefn, t = 0xfedcba0987654321n, a = 0x5555aaaa3333n;
  const nP: NP1 = noble.G1.Point.BASE.multiply(s), nQ: NP2 = noble.G2.Point.BASE.multiply(t);
  const pairs2n: [NP1, NP2][] = [[nP.multiply(a), nQ], [nP.negate(), nQ.multiply(a)]];
  const g1 = (p: NP1) => p.toAffine();
  const g2 = (q: NP2) => {
    const { x, y } = q.toAffine();
    return { x: [x.c0, x.c1] as [bigint, bigint], y: [y.c0, y.c1] as [bigint, bigint] };
  };
  const mG1 = (p: NP1) => {
    const o = new mcl.G1();
    const { x, y } = p.toAffine();
    o.setStr(`1 ${x.toString(16)} ${y.toString(16)}`, 16);
    return o;
  };
  const mG2 = (q: NP2) => {
    const o = new mcl.G2();
    const { x, y } = q.toAffine();
    o.setStr(`1 ${[x.c0, x.c1, y.c0, y.c1].map((v) => v.toString(16)).join(' ')}`, 16);
    return o;
  };
  const P = g1(nP), Q = g2(nQ);
  const pairs2 = pairs2n.map(([p, q]) => [g1(p), g2(q)] as const);
  const mP = mG1(nP), mQ = mG2(nQ);
  const mPairs2 = pairs2n.map(([p, q]) => [mG1(p), mG2(q)] as const);
  const prepared = pairs2.map(([p, q]) => [p, pr.prepareG2(q)] as const);
  const mPre = mPairs2.map(([, q]) => new mcl.PrecomputedG2(q));
  const fPippin: Fp12 = pr.millerLoop([[P, Q]]);
  const fNoble = noble.pairing(nP, nQ, false);
  const fMcl = mcl.millerLoop(mP, mQ);

  // cross-checks, before any timing
  const asNoble = (f: Fp12) => {
    const six = (h: 0 | 1) => ({ c0: { c0: f[h][0][0], c1: f[h][0][1] }, c1: { c0: f[h][1][0], c1: f[h][1][1] }, c2: { c0: f[h][2][0], c1: f[h][2][1] } });
    return { c0: six(0), c1: six(1) };
  };
  const checks = {
    'e(P, Q) pippin = noble': F12.eql(asNoble(pr.pairing(P, Q)), noble.pairing(nP, nQ)),
    'finalExp(millerLoop) pippin = noble': F12.eql(asNoble(pr.finalExp(fPippin)), noble.fields.Fp12.finalExponentiate(fNoble)),
    '1 pair: all false': [pr.pairingCheck([[P, Q]]), F12.eql(noble.pairing(nP, nQ), F12.ONE), mcl.pairing(mP, mQ).isOne()].every((b) => b === false),
    '2 pairs: all true': [
      pr.pairingCheck(pairs2),
      pr.pairingCheck(prepared),
      F12.eql(noble.pairingBatch(pairs2n.map(([p, q]) => ({ g1: p, g2: q }))), F12.ONE),
      mcl.finalExp(mcl.mul(mcl.millerLoop(mPairs2[0]![0], mPairs2[0]![1]), mcl.millerLoop(mPairs2[1]![0], mPairs2[1]![1]))).isOne(),
      mcl.finalExp(mcl.precomputedMillerLoop2(mPairs2[0]![0], mPre[0]!, mPairs2[1]![0], mPre[1]!)).isOne(),
    ].every((b) => b === true),
    'mcl: e(aP, Q) = e(P, aQ)': mcl.pairing(mPairs2[0]![0], mQ).isEqual(mcl.pairing(mP, mPairs2[1]![1])),
  };
  for (const [what, ok] of Object.entries(checks)) if (!ok) throw new Error(`cross-check failed: ${what}`);
  console.log(`cross-checks passed: ${Object.keys(checks).join('; ')}`);

  const cases: { name: string; libs: Record<string, () => unknown> }[] = [
    {
      name: 'pairingCheck, 1 pair',
      libs: { pippin: () => pr.pairingCheck([[P, Q]]), noble: () => F12.eql(noble.pairing(nP, nQ), F12.ONE), mcl: () => mcl.pairing(mP, mQ).isOne() },
    },
    {
      name: 'pairingCheck, 2 pairs',
      libs: {
        pippin: () => pr.pairingCheck(pairs2),
        noble: () => F12.eql(noble.pairingBatch(pairs2n.map(([p, q]) => ({ g1: p, g2: q }))), F12.ONE),
        mcl: () => mcl.finalExp(mcl.mul(mcl.millerLoop(mPairs2[0]![0], mPairs2[0]![1]), mcl.millerLoop(mPairs2[1]![0], mPairs2[1]![1]))).isOne(),
      },
    },
    {
      name: 'pairingCheck, 2 pairs, G2 prepared',
      libs: {
        pippin: () => pr.pairingCheck(prepared),
        mcl: () => mcl.finalExp(mcl.precomputedMillerLoop2(mPairs2[0]![0], mPre[0]!, mPairs2[1]![0], mPre[1]!)).isOne(),
      },
    },
    {
      name: 'Miller loop, 1 pair',
      libs: { pippin: () => pr.millerLoop([[P, Q]]), noble: () => noble.pairing(nP, nQ, false), mcl: () => mcl.millerLoop(mP, mQ) },
    },
    {
      name: 'final exponentiation',
      libs: { pippin: () => pr.finalExp(fPippin), noble: () => noble.fields.Fp12.finalExponentiate(fNoble), mcl: () => mcl.finalExp(fMcl) },
    },
  ];
  const times = new Map<string, number[]>();
  for (let round = 0; round < rounds + 1; round++) {
    for (const c of cases) {
      const names = Object.keys(c.libs);
      for (let j = 0; j < names.length; j++) {
        const lib = names[(j + round) % names.length]!;
        const f = c.libs[lib]!;
        const t0 = performance.now();
        for (let i = 0; i < iters; i++) f();
        const ms = (performance.now() - t0) / iters;
        if (round > 0) times.set(`${c.name}|${lib}`, [...(times.get(`${c.name}|${lib}`) ?? []), ms]); // round 0 warms up
      }
    }
  }
  const ms = (c: string, lib: string) => {
    const xs = times.get(`${c}|${lib}`);
    return xs ? median(xs) : undefined;
  };
  console.log(`\n${name}, pippin backend ${api.info().backend}, ${rounds} rounds × ${iters} calls, median ms per call (peer / pippin)\n`);
  console.log('| case | pippin | noble | mcl |');
  console.log('|---|---:|---:|---:|');
  for (const c of cases) {
    const base = ms(c.name, 'pippin')!;
    const cell = (lib: string) => {
      const v = ms(c.name, lib);
      return v === undefined ? '—' : `${v.toFixed(2)} (${(v / base).toFixed(2)}×)`;
    };
    console.log(`| ${c.name} | ${base.toFixed(2)} | ${cell('noble')} | ${cell('mcl')} |`);
  }
  release();
});
