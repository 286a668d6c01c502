/**
 * Blob KZG (pippin/kzg) against c-kzg 4.1.0 native, kzg-wasm@1.0.0 and micro-eth-signer, in one
 * process, on the official setup and random blobs:
 *   'load' (setup decode + validation), 'fk20-first-use' (the first computeCellsAndKzgProofs: it
 *   builds the FK20 tables), 'commit' (one blob), 'blob-proof' (one blob, computeBlobKzgProof),
 *   'cells-proofs' (one blob, computeCellsAndKzgProofs, tables built), 'cells' (pippin).
 * pippin on 1 and 2 threads (the pool started or stopped around its rows; threads serve the
 * commitment and proof MSMs, FK20 runs on the calling thread), without and with the Lagrange table
 * ('pippin+tables'). Runs are interleaved (each pippin configuration, then each peer, then the next
 * run; every run a new blob); medians of --runs after a warm-up run. The peers' load is timed once
 * (c-kzg loads once per process: --ckzg-precompute picks its FK20 window; micro-eth-signer builds
 * its FK20 tables at its first cells call, timed once as 'fk20-first-use'; c-kzg and kzg-wasm build
 * theirs in their load). Every result is checked
 * against every other implementation's for the same blob: ok = all agree.
 *
 * --sync times pippin's `kzg.sync` methods (c-kzg's names, run on the calling thread and blocking it)
 * instead of the async ones, as 'pippin sync' / 'pippin+tables sync' (with --threads 1: the sync
 * methods use no worker).
 *
 * --baseline DIR times another checkout of pippin (its src/, generated: `npx tsx src/codegen/build.ts`
 * there) the same way, interleaved with this one, as 'pippin@base' (a change's cost in one run).
 *
 *   npm run bench:kzg -- [--runs 3] [--threads 1,2] [--peers c-kzg,kzg-wasm,micro-eth-signer] [--ckzg-precompute 0] [--sync] [--baseline DIR] [--json]
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { intFlag, intListFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import { startThreads, stopThreads } from '../src/index.js';
import { loadKzg, type Kzg, type KzgSync } from '../src/kzg/index.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';
import { loadCkzg, loadKzgWasm, loadMicroEthSigner, type PeerKzg } from '../examples/kzg-4844/peers.js';

const PEERS = ['c-kzg', 'kzg-wasm', 'micro-eth-signer'] as const;
const TASKS = ['load', 'commit', 'blob-proof', 'cells-proofs', 'cells', 'fk20-first-use'] as const;
type Task = (typeof TASKS)[number];
const USAGE = `usage: npm run bench:kzg -- [--runs 3] [--threads 1,2] [--peers ${PEERS.join(',')}] [--ckzg-precompute 0] [--sync] [--baseline DIR] [--json]`;

/** One pippin to time: this checkout's, or a baseline's (its own modules, pool and Wasm instance). */
interface Pippin {
  suffix: string;
  loadKzg: (options: { threads: number; tables: boolean }) => Promise<Kzg>;
  startThreads: (n: number) => Promise<unknown>;
  stopThreads: () => void;
}

interface Row {
  impl: string;
  task: Task;
  threads: number;
  medianMs: number;
  ok: boolean;
}

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), { runs: { type: 'string' }, threads: { type: 'string' }, peers: { type: 'string' }, 'ckzg-precompute': { type: 'string' }, baseline: { type: 'string' }, sync: { type: 'boolean' }, json: { type: 'boolean' } });
  const runs = intFlag('runs', values.runs, 3, 1, 100);
  const threadCounts = intListFlag('threads', values.threads, [1, 2], 1, 256);
  const sync = values.sync === true;
  const peerNames = listFlag('peers', values.peers, PEERS, PEERS);
  const precompute = intFlag('ckzg-precompute', values['ckzg-precompute'], 0, 0, 15);
  const log = values.json ? () => {} : (s: string) => console.error(s);
  const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
  /** results by "task|run": every implementation's answer, ok iff one distinct answer each */
  const seen = new Map<string, Set<string>>();
  const saw = (task: string, run: number, value: string) => {
    const key = `${task}|${run}`;
    seen.set(key, (seen.get(key) ?? new Set()).add(value));
  };
  const times = new Map<string, number[]>();
  const record = (impl: string, task: Task, threads: number, ms: number) => {
    const key = `${impl}|${task}|${threads}`;
    times.set(key, [...(times.get(key) ?? []), ms]);
  };
  const timed = async <T>(f: () => Promise<T> | T): Promise<[T, number]> => {
    const t0 = performance.now();
    const v = await f();
    return [v, performance.now() - t0];
  };

  const peers: PeerKzg[] = [];
  for (const name of peerNames) {
    log(`loading ${name} (timed once)…`);
    const p = name === 'c-kzg' ? loadCkzg(precompute) : await (name === 'kzg-wasm' ? loadKzgWasm() : loadMicroEthSigner());
    record(p.name, 'load', 1, p.loadMs);
    log(`  ${p.name}: ${p.loadMs.toFixed(0)} ms`);
    peers.push(p);
  }
  const pippins: Pippin[] = [{ suffix: '', loadKzg, startThreads, stopThreads }];
  if (values.baseline) {
    const at = (f: string) => pathToFileURL(join(values.baseline!, f)).href;
    const [k, i] = [await import(at('src/kzg/index.ts')), await import(at('src/index.ts'))];
    pippins.push({ suffix: '@base', loadKzg: k.loadKzg, startThreads: i.startThreads, stopThreads: i.stopThreads });
  }
  const firstUse = new Set<string>();
  for (let run = 0; run <= runs; run++) {
    const warm = run === 0; // warms up (JIT, pool start); not recorded
    const blob = randomBlob(1000 + run);
    // with a baseline: the two alternate which goes first from run to run
    const order = run % 2 === 0 ? pippins : [...pippins].reverse();
    for (const [threads, tables, pip] of threadCounts.flatMap((t) => [false, true].flatMap((tb) => order.map((p) => [t, tb, p] as const)))) {
      const impl = (tables ? 'pippin+tables' : 'pippin') + pip.suffix + (sync ? ' sync' : '');
      for (const other of pippins) if (other !== pip) other.stopThreads();
      if (threads === 1) pip.stopThreads();
      else await pip.startThreads(threads);
      const [kzg, loadMs] = await timed(() => pip.loadKzg({ threads, tables }));
      if (sync && !kzg.sync) throw new Error(`--sync: pippin${pip.suffix} has no kzg.sync`);
      const row = await measurePippin(sync ? kzg.sync : kzg, blob, run, hex, saw, timed);
      kzg.dispose();
      if (!warm) {
        record(impl, 'load', threads, loadMs);
        for (const [task, ms] of row) record(impl, task, threads, ms);
      }
      log(`run ${run}${warm ? ' (warm-up)' : ''}: ${impl} ${threads} thread(s): load ${loadMs.toFixed(0)} ms, ${row.map(([t, ms]) => `${t} ${ms.toFixed(1)} ms`).join(', ')}`);
    }
    for (const pip of pippins) pip.stopThreads();
    if (warm) continue;
    for (const p of peers) {
      const [c, commitMs] = await timed(() => p.commit(blob));
      const [proof, proofMs] = await timed(() => p.blobProof(blob, c));
      if (p.name === 'micro-eth-signer' && !firstUse.has(p.name)) {
        log('  micro-eth-signer: first cells call (builds its FK20 tables)…');
        const [, ms] = await timed(() => p.cellsAndProofs(blob));
        record(p.name, 'fk20-first-use', 1, ms);
        firstUse.add(p.name);
      }
      const [[cells, proofs], cellsMs] = await timed(() => p.cellsAndProofs(blob));
      saw('commit', run, c);
      saw('blob-proof', run, proof);
      saw('cells-proofs', run, [...cells, ...proofs].join(''));
      record(p.name, 'commit', 1, commitMs);
      record(p.name, 'blob-proof', 1, proofMs);
      record(p.name, 'cells-proofs', 1, cellsMs);
      log(`run ${run}: ${p.name}: commit ${commitMs.toFixed(1)} ms, blob-proof ${proofMs.toFixed(1)} ms, cells-proofs ${cellsMs.toFixed(1)} ms`);
    }
  }
  const ok = [...seen.values()].every((s) => s.size === 1);
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[(a.length - 1) >> 1];
  const rows: Row[] = [...times].map(([key, ms]) => {
    const [impl, task, threads] = key.split('|');
    return { impl, task: task as Task, threads: Number(threads), medianMs: Number(median(ms).toFixed(2)), ok };
  });
  if (values.json) {
    console.log(JSON.stringify(rows, null, 2));
    return ok ? 0 : 1;
  }
  const impls = [...new Set(rows.map((r) => `${r.impl}|${r.threads}`))];
  const cell = (impl: string, task: string) => {
    const r = rows.find((x) => `${x.impl}|${x.threads}` === impl && x.task === task);
    return r ? (r.medianMs >= 1000 ? `${(r.medianMs / 1000).toFixed(2)} s` : `${r.medianMs.toFixed(1)} ms`) : '';
  };
  console.log(`\nmedian of ${runs} run(s) (peers' load: once); results ${ok ? 'agree byte for byte' : 'DISAGREE'} across implementations\n`);
  console.log(`| implementation | threads | ${TASKS.join(' | ')} |\n|---|---|${TASKS.map(() => '---|').join('')}`);
  for (const impl of impls) console.log(`| ${impl.split('|')[0]} | ${impl.split('|')[1]} | ${TASKS.map((t) => cell(impl, t)).join(' | ')} |`);
  const get = (impl: string, task: string, threads: number) => rows.find((r) => r.impl === impl && r.task === task && r.threads === threads)?.medianMs;
  for (const p of peers) {
    const tag = sync ? ' sync' : '';
    const ratio = (task: string, impl = 'pippin' + tag) => ((get(p.name, task, 1) ?? NaN) / (get(impl, task, 1) ?? NaN)).toFixed(2);
    console.log(`${p.name} / pippin${tag} (1 thread): commit ${ratio('commit')}× (tables ${ratio('commit', 'pippin+tables' + tag)}×), blob-proof ${ratio('blob-proof')}×, cells-proofs ${ratio('cells-proofs')}×`);
  }
  return ok ? 0 : 1;
}

/** One blob through every pippin task (the async methods, or kzg.sync's); the answers go to `saw`. */
async function measurePippin(
  kzg: Kzg | KzgSync,
  blob: Uint8Array,
  run: number,
  hex: (b: Uint8Array) => string,
  saw: (task: string, run: number, value: string) => void,
  timed: <T>(f: () => Promise<T> | T) => Promise<[T, number]>,
): Promise<[Task, number][]> {
  // the first cells call builds FK20's tables (loadKzg's default fk20: 'first-use')
  const [, firstMs] = await timed(() => kzg.computeCellsAndKzgProofs(blob));
  const [c, commitMs] = await timed(() => kzg.blobToKzgCommitment(blob));
  const [proof, proofMs] = await timed(() => kzg.computeBlobKzgProof(blob, c));
  const [[cells, proofs], cellsProofsMs] = await timed(() => kzg.computeCellsAndKzgProofs(blob));
  const [cellsOnly, cellsMs] = await timed(() => kzg.computeCells(blob));
  saw('commit', run, hex(c));
  saw('blob-proof', run, hex(proof));
  saw('cells-proofs', run, [...cells, ...proofs].map(hex).join(''));
  saw('cells', run, cellsOnly.map(hex).join(''));
  return [['fk20-first-use', firstMs], ['commit', commitMs], ['blob-proof', proofMs], ['cells-proofs', cellsProofsMs], ['cells', cellsMs]];
}

runCli('bench:kzg', USAGE, main);
