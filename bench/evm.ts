/**
 * The EVM precompiles, one process, one thread, interleaved: pippin/evm against the backends
 * @ethereumjs/evm 10.1.3 ships — NobleBLS (@noble/curves), MCLBLS (mcl-wasm 2.4.1), NobleBN254 and
 * RustBN254 (rustbn-wasm 0.4.0) — each called as the EVM calls it (bytes in, bytes out).
 * Every output is cross-checked before timing. Per round each case runs each backend in turn
 * (rotating order); the table gives the median ms per call over rounds, the peers' time over
 * pippin's, and pippin's µs per gas against ethereumjs's own ecrecover (0x01, 3000 gas) measured in
 * the same run: the EIP-2537 gas schedule takes ecrecover as its baseline.
 *
 *   npm run bench:evm -- [--rounds 5] [--iters 3] [--max] [--slow-peers]
 *
 * --max adds the largest k one 2^24-gas transaction allows (G1MSM 2693, G2MSM 1423, pairing 513;
 * noble only with --slow-peers).
 */
import { bls12_381 as noble } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn } from '@noble/curves/bn254.js';
import mcl from 'mcl-wasm';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, getActivePrecompiles, MCLBLS, NobleBLS, NobleBN254, RustBN254 } from '@ethereumjs/evm';
import { initRustBN } from 'rustbn-wasm';
import { createEvmBackends } from '../src/evm/index.js';
import { holdMclCurve } from './peers/mcl.js';
import { intFlag, parseFlags, runCli } from '../src/cli-args.js';

const USAGE = 'usage: npm run bench:evm -- [--rounds 5] [--iters 3] [--max] [--slow-peers]';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
type Fn = (input: Uint8Array) => Uint8Array;

const be = (v: bigint, len: number) => {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
};
const cat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, (o += p.length) - p.length);
  return out;
};
type NP1 = InstanceType<typeof noble.G1.Point>;
type NP2 = InstanceType<typeof noble.G2.Point>;
const g1Bytes = (P: NP1) => {
  const { x, y } = P.toAffine();
  return cat([be(x, 64), be(y, 64)]);
};
const g2Bytes = (Q: NP2) => {
  const { x, y } = Q.toAffine();
  return cat([x.c0, x.c1, y.c0, y.c1].map((c) => be(c, 64)));
};
/** n distinct subgroup points a·G, (a + d)·G, … (one addition each). */
function chain<P extends { add(o: P): P }>(base: P, step: P, n: number): P[] {
  const out: P[] = [];
  let acc = base;
  for (let i = 0; i < n; i++, acc = acc.add(step)) out.push(acc);
  return out;
}
let seed = 0x9e3779b97f4a7c15n;
const scalar = () => {
  seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 256n) - 1n);
  return be(seed, 32);
};

runCli('bench:evm', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { rounds: { type: 'string' }, iters: { type: 'string' }, max: { type: 'boolean' }, 'slow-peers': { type: 'boolean' } });
  const rounds = intFlag('rounds', values.rounds, 5, 1, 100);
  const iters = intFlag('iters', values.iters, 3, 1, 1000);
  const { bls, bn254 } = await createEvmBackends();
  const release = await holdMclCurve('bls12-381');
  const mclBls = new MCLBLS(mcl);
  mclBls.init();
  const nobleBls = new NobleBLS();
  const nobleBn254 = new NobleBN254();
  const rustBn254 = new RustBN254(await initRustBN());

  // ecrecover through ethereumjs's own precompile function: the gas schedule's baseline
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
  const evm = await createEVM({ common });
  const ecrecover = getActivePrecompiles(common).get('0000000000000000000000000000000000000001')!;
  const msgHash = be(0x1234n, 32);
  const sk = be(0xdeadbeefn, 32);
  const { secp256k1 } = await import('@noble/curves/secp256k1.js');
  const sig = secp256k1.sign(msgHash, sk, { prehash: false, format: 'recovered' });
  const ecInput = cat([msgHash, be(BigInt(sig[0]! + 27), 32), sig.subarray(1, 33), sig.subarray(33, 65)]);
  const runEcrecover = async () => (await ecrecover({ data: ecInput, gasLimit: 100000n, common, _EVM: evm } as never)).returnValue;
  if ((await runEcrecover()).length !== 32) throw new Error('ecrecover failed on the benchmark input');

  const G1 = noble.G1.Point.BASE, G2 = noble.G2.Point.BASE;
  const maxK = { g1: 2693, g2: 1423, pairing: 513 };
  const ks = [1, 2, 8, 32, 128];
  const kMax = (big: number) => (values.max ? [...ks, big] : ks);
  const allG1 = chain(G1.multiply(7n), G1.multiply(0x1234567n), values.max ? maxK.g1 : 128).map(g1Bytes);
  const allG2 = chain(G2.multiply(11n), G2.multiply(0x7654321n), values.max ? maxK.g2 : 128).map(g2Bytes);
  const msmInput = (pts: Uint8Array[], k: number) => cat(pts.slice(0, k).flatMap((p) => [p, scalar()]));
  // a pairing check that holds: e(aP, Q)·e(−P, aQ) repeated (k even) or one e(P, ∞)-free false pair
  const pairInput = (k: number) => {
    const a = 0x5555aaaa3333n, P = G1.multiply(0xabcdefn), Q = G2.multiply(0x123457n);
    const two = [cat([g1Bytes(P.multiply(a)), g2Bytes(Q)]), cat([g1Bytes(P.negate()), g2Bytes(Q.multiply(a))])];
    return cat(Array.from({ length: k }, (_, i) => two[i % 2]!));
  };
  const bnP = nobleBn.G1.Point.BASE.multiply(0x1234567n).toAffine();
  const bnQ = nobleBn.G1.Point.BASE.multiply(0x7654321n).toAffine();
  const bnAdd = cat([be(bnP.x, 32), be(bnP.y, 32), be(bnQ.x, 32), be(bnQ.y, 32)]);
  const bnMul = cat([be(bnP.x, 32), be(bnP.y, 32), scalar()]);
  // ecPairing: e(aP, Q)·e(−P, aQ) repeated (k even: 1), G2 as x.c1‖x.c0‖y.c1‖y.c0 (EIP-197)
  const bnG2Bytes = (Q: InstanceType<typeof nobleBn.G2.Point>) => {
    const { x, y } = Q.toAffine();
    return cat([x.c1, x.c0, y.c1, y.c0].map((c) => be(c, 32)));
  };
  const bnG1Bytes = (P: InstanceType<typeof nobleBn.G1.Point>) => {
    const { x, y } = P.toAffine();
    return cat([be(x, 32), be(y, 32)]);
  };
  const bnPairInput = (k: number) => {
    const a = 0x5555aaaa3333n, P = nobleBn.G1.Point.BASE.multiply(0xabcdefn), Q = nobleBn.G2.Point.BASE.multiply(0x123457n);
    const two = [cat([bnG1Bytes(P.multiply(a)), bnG2Bytes(Q)]), cat([bnG1Bytes(P.negate()), bnG2Bytes(Q.multiply(a))])];
    return cat(Array.from({ length: k }, (_, i) => two[i % 2]!));
  };
  const bnPeers = (m: 'add' | 'mul' | 'pairing'): [string, Fn][] => [
    ['pippin', (i) => bn254[m](i)],
    ['rustbn', (i) => rustBn254[m](i)],
    ['noble', (i) => nobleBn254[m](i)],
  ];

  // EIP-2537's discounts at the k measured here (its tables; k > 128: max_discount)
  const d1: Record<number, number> = { 1: 1000, 2: 949, 8: 728, 32: 627, 128: 519 };
  const d2: Record<number, number> = { 1: 1000, 2: 1000, 8: 796, 32: 646, 128: 524 };
  const msmGas = (k: number, mul: number, table: Record<number, number>, cap: number) => Math.floor((k * mul * (table[k] ?? cap)) / 1000);

  interface Case { name: string; input: Uint8Array; gas: number; runs: [string, Fn][] }
  const blsPeers = (m: keyof typeof bls, slow: boolean): [string, Fn][] => [
    ['pippin', (i) => bls[m](i)],
    ['mcl', (i) => mclBls[m](i)],
    ...(slow && !values['slow-peers'] ? [] : ([['noble', (i: Uint8Array) => nobleBls[m](i)]] as [string, Fn][])),
  ];
  const cases: Case[] = [
    { name: 'ecAdd (0x06)', input: bnAdd, gas: 150, runs: bnPeers('add') },
    { name: 'ecMul (0x07)', input: bnMul, gas: 6000, runs: bnPeers('mul') },
    ...[2, 8].map((k) => ({ name: `ecPairing k=${k}`, input: bnPairInput(k), gas: 34000 * k + 45000, runs: bnPeers('pairing') })),
    { name: 'G1ADD (0x0b)', input: cat([allG1[0]!, allG1[1]!]), gas: 375, runs: blsPeers('addG1', false) },
    { name: 'G2ADD (0x0d)', input: cat([allG2[0]!, allG2[1]!]), gas: 600, runs: blsPeers('addG2', false) },
    ...kMax(maxK.g1).map((k) => ({ name: `G1MSM k=${k}`, input: msmInput(allG1, k), gas: msmGas(k, 12000, d1, 519), runs: blsPeers('msmG1', k > 128) })),
    ...kMax(maxK.g2).map((k) => ({ name: `G2MSM k=${k}`, input: msmInput(allG2, k), gas: msmGas(k, 22500, d2, 524), runs: blsPeers('msmG2', k > 128) })),
    ...(values.max ? [1, 2, 8, maxK.pairing] : [1, 2, 8]).map((k) => ({ name: `PAIRING k=${k}`, input: pairInput(k), gas: 32600 * k + 37700, runs: blsPeers('pairingCheck', k > 8) })),
    { name: 'MAP_FP_TO_G1', input: be(0x1234567890n, 64), gas: 5500, runs: blsPeers('mapFPtoG1', false) },
    { name: 'MAP_FP2_TO_G2', input: cat([be(0x1234567890n, 64), be(0x42n, 64)]), gas: 23800, runs: blsPeers('mapFP2toG2', false) },
  ];

  // cross-check: every backend's output equal to pippin's
  for (const c of cases) {
    const ref = c.runs[0]![1](c.input);
    for (const [who, f] of c.runs.slice(1)) {
      const out = f(c.input);
      if (out.length !== ref.length || out.some((b, i) => b !== ref[i])) throw new Error(`${c.name}: ${who}'s output differs from pippin's`);
    }
    if (/pairing/i.test(c.name) && ref[31] !== (Number(c.name.split('=')[1]) % 2 === 0 ? 1 : 0)) throw new Error(`${c.name}: unexpected pairing result`);
  }
  console.log(`cross-checked ${cases.length} cases; ${rounds} rounds × ${iters} calls, interleaved`);

  const ecTimes: number[] = [];
  const times = cases.map((c) => c.runs.map(() => [] as number[]));
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    for (let i = 0; i < iters * 5; i++) await runEcrecover();
    ecTimes.push((performance.now() - t0) / (iters * 5));
    cases.forEach((c, ci) => {
      const n = c.runs.length;
      for (let j = 0; j < n; j++) {
        const w = (j + r) % n;
        const f = c.runs[w]![1];
        t0 = performance.now();
        for (let i = 0; i < iters; i++) f(c.input);
        times[ci]![w]!.push((performance.now() - t0) / iters);
      }
    });
  }
  const ecMs = median(ecTimes);
  const rate = (ecMs * 1000) / 3000;
  console.log(`ethereumjs ecrecover (0x01): ${ecMs.toFixed(3)} ms per call = ${rate.toFixed(4)} µs/gas (the baseline rate)`);
  console.log('| case | gas | pippin ms | µs/gas (≤ baseline?) | mcl or rustbn ms (×) | noble ms (×) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  cases.forEach((c, ci) => {
    const med = c.runs.map((_, w) => median(times[ci]![w]!));
    const mine = med[0]!;
    const peer = (who: string) => {
      const w = c.runs.findIndex(([n]) => n === who);
      return w < 0 ? '—' : `${med[w]!.toFixed(3)} (${(med[w]! / mine).toFixed(2)}×)`;
    };
    const perGas = (mine * 1000) / c.gas;
    console.log(`| ${c.name} | ${c.gas} | ${mine.toFixed(3)} | ${perGas.toFixed(4)} (${perGas <= rate ? 'yes' : 'NO'}) | ${c.name.startsWith('ec') ? peer('rustbn') : peer('mcl')} | ${peer('noble')} |`);
  });
  release();
});
