/**
 * pippin/kzg's verifiers against c-kzg 4.1.0 native (and kzg-wasm@1.0.0 with --peers c-kzg,kzg-wasm;
 * its setup load takes 10–25 s), one thread, on the official setup: 'kzg-proof' (verifyKzgProof),
 * 'blob-proof' (verifyBlobKzgProof), 'blob-batch-4' (verifyBlobKzgProofBatch of 4 blobs), 'cells-128'
 * (verifyCellKzgProofBatch of the 128 cells of one blob), 'cells-64' (64 of them, two blobs' halves).
 * pippin as `kzg.sync` ('pippin sync') and async ('pippin'). Runs are interleaved (every
 * implementation, then the next, in a new seeded random order for every task and run; every run new
 * random blobs, inputs made by c-kzg); medians of --runs after a warm-up run. Cross-checked every run: each implementation returns true on the valid
 * inputs and false with one proof replaced by another valid point (ok = all agree). Ratios are to
 * c-kzg's median.
 *
 *   npm run bench:kzg-verify -- [--runs 7] [--peers c-kzg,kzg-wasm] [--json]
 */
import { createRequire } from 'node:module';
import { intFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import { loadKzg } from '../src/kzg/index.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';

const TASKS = ['kzg-proof', 'blob-proof', 'blob-batch-4', 'cells-128', 'cells-64'] as const;
type Task = (typeof TASKS)[number];
const USAGE = 'usage: npm run bench:kzg-verify -- [--runs 7] [--peers c-kzg,kzg-wasm] [--json]';

/** One task's inputs as bytes: the valid case and the forged one (a proof replaced by another valid point). */
interface Case {
  args: Uint8Array[] | unknown[];
  forged: unknown[];
}
type Verify = Record<Task, (args: unknown[]) => boolean | Promise<boolean>>;
const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');

runCli('bench:kzg-verify', USAGE, async () => {
  const { values: flags } = parseFlags(process.argv.slice(2), { runs: { type: 'string' }, peers: { type: 'string' }, json: { type: 'boolean' } });
  const runs = intFlag('runs', flags.runs, 7, 1, 1000);
  const peers = listFlag('peers', flags.peers, ['c-kzg'], ['c-kzg', 'kzg-wasm']);
  const ckzg = createRequire(import.meta.url)('c-kzg') as typeof import('c-kzg');
  ckzg.loadTrustedSetup(0);
  const kzg = await loadKzg({ threads: 1 });

  const sync = kzg.sync;
  const impls: [string, Verify][] = [
    ['pippin sync', { 'kzg-proof': (a) => sync.verifyKzgProof(...(a as [Uint8Array, Uint8Array, Uint8Array, Uint8Array])), 'blob-proof': (a) => sync.verifyBlobKzgProof(...(a as [Uint8Array, Uint8Array, Uint8Array])), 'blob-batch-4': (a) => sync.verifyBlobKzgProofBatch(...(a as [Uint8Array[], Uint8Array[], Uint8Array[]])), 'cells-128': (a) => sync.verifyCellKzgProofBatch(...(a as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])), 'cells-64': (a) => sync.verifyCellKzgProofBatch(...(a as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])) }],
    ['pippin', { 'kzg-proof': (a) => kzg.verifyKzgProof(...(a as [Uint8Array, Uint8Array, Uint8Array, Uint8Array])), 'blob-proof': (a) => kzg.verifyBlobKzgProof(...(a as [Uint8Array, Uint8Array, Uint8Array])), 'blob-batch-4': (a) => kzg.verifyBlobKzgProofBatch(...(a as [Uint8Array[], Uint8Array[], Uint8Array[]])), 'cells-128': (a) => kzg.verifyCellKzgProofBatch(...(a as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])), 'cells-64': (a) => kzg.verifyCellKzgProofBatch(...(a as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])) }],
    ['c-kzg 4.1.0', { 'kzg-proof': (a) => ckzg.verifyKzgProof(...(a as [Uint8Array, Uint8Array, Uint8Array, Uint8Array])), 'blob-proof': (a) => ckzg.verifyBlobKzgProof(...(a as [Uint8Array, Uint8Array, Uint8Array])), 'blob-batch-4': (a) => ckzg.verifyBlobKzgProofBatch(...(a as [Uint8Array[], Uint8Array[], Uint8Array[]])), 'cells-128': (a) => ckzg.verifyCellKzgProofBatch(...(a as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])), 'cells-64': (a) => ckzg.verifyCellKzgProofBatch(...(a as [Uint8Array[], number[], Uint8Array[], Uint8Array[]])) }],
  ];
  if (peers.includes('kzg-wasm')) {
    const { loadKZG } = await import('kzg-wasm');
    const t0 = performance.now();
    const w = await loadKZG();
    console.error(`kzg-wasm@1.0.0 load: ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    const H = (l: unknown) => (l as Uint8Array[]).map(hex);
    impls.push(['kzg-wasm@1.0.0', { 'kzg-proof': (a) => w.verifyKZGProof(...((a as Uint8Array[]).map(hex) as [string, string, string, string])), 'blob-proof': (a) => w.verifyBlobKZGProof(...((a as Uint8Array[]).map(hex) as [string, string, string])), 'blob-batch-4': (a) => w.verifyBlobProofBatch(H(a[0]), H(a[1]), H(a[2])), 'cells-128': (a) => w.verifyCellKzgProofBatch(H(a[0]), a[1] as number[], H(a[2]), H(a[3])), 'cells-64': (a) => w.verifyCellKzgProofBatch(H(a[0]), a[1] as number[], H(a[2]), H(a[3])) }]);
  }

  let seed = 7100;
  const cases = (): Record<Task, Case> => {
    const blobs = [0, 1, 2, 3].map(() => randomBlob(seed++));
    const C = blobs.map((b) => ckzg.blobToKzgCommitment(b));
    const P = blobs.map((b, i) => ckzg.computeBlobKzgProof(b, C[i]));
    const z = randomBlob(seed++).subarray(0, 32);
    const [kp, y] = ckzg.computeKzgProof(blobs[0], z);
    const [cells0, cp0] = ckzg.computeCellsAndKzgProofs(blobs[0]);
    const [cells1, cp1] = ckzg.computeCellsAndKzgProofs(blobs[1]);
    const all = [...Array(128).keys()];
    const half = all.slice(0, 32);
    const c64 = [[...half.map(() => C[0]), ...half.map(() => C[1])], [...half, ...half.map((k) => k + 64)], [...half.map((k) => cells0[k]), ...half.map((k) => cells1[k + 64])], [...half.map((k) => cp0[k]), ...half.map((k) => cp1[k + 64])]];
    const swapLast = (l: unknown[]) => [...l.slice(0, -1), [...(l.at(-1) as Uint8Array[]).slice(0, -1), (l.at(-1) as Uint8Array[])[0]]];
    return {
      'kzg-proof': { args: [C[0], z, y, kp], forged: [C[0], z, y, P[0]] },
      'blob-proof': { args: [blobs[0], C[0], P[0]], forged: [blobs[0], C[0], P[1]] },
      'blob-batch-4': { args: [blobs, C, P], forged: swapLast([blobs, C, P]) },
      'cells-128': { args: [all.map(() => C[0]), all, cells0, cp0], forged: swapLast([all.map(() => C[0]), all, cells0, cp0]) },
      'cells-64': { args: c64, forged: swapLast(c64) },
    };
  };

  let state = 0x9e3779b9;
  const shuffled = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      const j = state % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  const times = new Map<string, number[]>();
  let ok = true;
  for (let run = 0; run <= runs; run++) {
    const cs = cases();
    for (const task of TASKS) {
      // the implementations in a new random order for every task and run (a call pays for the garbage of the one before it:
      // kzg-wasm's hex strings, the inputs made by c-kzg)
      for (const [name, v] of shuffled(impls)) {
        const t0 = performance.now();
        const good = await v[task](cs[task].args as unknown[]);
        const ms = performance.now() - t0;
        const bad = await v[task](cs[task].forged);
        if (good !== true || bad !== false) {
          ok = false;
          console.error(`MISMATCH ${name} ${task}: valid → ${good}, forged → ${bad}`);
        }
        if (run > 0) times.set(`${name}\t${task}`, [...(times.get(`${name}\t${task}`) ?? []), ms]);
      }
    }
  }
  kzg.dispose();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const rows = impls.map(([name]) => [name, ...TASKS.map((t) => median(times.get(`${name}\t${t}`)!))] as const);
  const base = rows.find(([n]) => n.startsWith('c-kzg'))!;
  if (flags.json) {
    console.log(JSON.stringify({ runs, ok, rows: rows.map(([name, ...ms]) => ({ name, ms: Object.fromEntries(TASKS.map((t, i) => [t, ms[i]])) })) }));
    return ok ? 0 : 1;
  }
  console.log(`| implementation | ${TASKS.join(' | ')} |`);
  console.log(`|---|${TASKS.map(() => '---:').join('|')}|`);
  for (const [name, ...ms] of rows) console.log(`| ${name} | ${ms.map((m, i) => `${m.toFixed(2)} ms${name === base[0] ? '' : ` (${(m / (base[i + 1] as number)).toFixed(2)}×)`}`).join(' | ')} |`);
  console.log(`medians of ${runs} interleaved runs after a warm-up, ms per call; (×) = / c-kzg; cross-checked (valid → true, forged → false): ${ok ? 'ok' : 'MISMATCH'}`);
  return ok ? 0 : 1;
});
