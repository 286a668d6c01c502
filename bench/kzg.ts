/**
 * Blob KZG (pippin/kzg) against c-kzg 4.1.0 native (precompute 0 and 8), rust-eth-kzg native
 * (@crate-crypto/node-eth-kzg 0.10.0, with and without usePrecomp, one thread: RAYON_NUM_THREADS=1;
 * not a devDependency — `npm install --no-save @crate-crypto/node-eth-kzg@0.10.0` adds it),
 * kzg-wasm@1.0.0 and micro-eth-signer, on the official setup and random blobs:
 *   'load' (setup decode + validation), 'fk20-first-use' (the first computeCellsAndKzgProofs: it
 *   builds the FK20 tables), 'commit' (one blob), 'blob-proof' (one blob, computeBlobKzgProof),
 *   'cells-proofs' (one blob, computeCellsAndKzgProofs, tables built), 'cells' (pippin), 'recover'
 *   (recoverCellsAndKzgProofs from 64 of the blob's cells, a random choice per run, ascending).
 * Each peer runs in a child process of its own (bench/kzg-peer.ts: c-kzg holds one setup per
 * process; rust-eth-kzg's thread count is fixed by the environment at its start), which times each
 * call alone; pippin runs in this process.
 * pippin on 1 and 2 threads (the pool started or stopped around its rows; threads serve the
 * commitment and proof MSMs, FK20 runs on the calling thread), without and with the Lagrange table
 * ('pippin+tables'). Runs are interleaved (each pippin configuration, then each peer, then the next
 * run; every run a new blob); medians of --runs after a warm-up run. The peers' load is timed once
 * (--ckzg-precompute lists c-kzg's FK20 windows, one process each; micro-eth-signer builds
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
 *   npm run bench:kzg -- [--runs 3] [--threads 1,2] [--peers c-kzg,rust-eth-kzg,kzg-wasm,micro-eth-signer] [--ckzg-precompute 0,8] [--sync] [--baseline DIR] [--json]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { intFlag, intListFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import { startThreads, stopThreads } from '../src/index.js';
import { loadKzg, type Kzg, type KzgSync } from '../src/kzg/index.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';
import { hasRustEthKzg, RUST_ETH_KZG_INSTALL } from '../examples/kzg-4844/peers.js';
import type { PeerRequest, PeerSpec } from './kzg-peer.js';

const PEERS = ['c-kzg', 'rust-eth-kzg', 'kzg-wasm', 'micro-eth-signer'] as const;
const TASKS = ['load', 'commit', 'blob-proof', 'cells-proofs', 'cells', 'recover', 'fk20-first-use'] as const;
type Task = (typeof TASKS)[number];
const USAGE = `usage: npm run bench:kzg -- [--runs 3] [--threads 1,2] [--peers ${PEERS.join(',')}] [--ckzg-precompute 0,8] [--sync] [--baseline DIR] [--json]`;

/** A peer in its child process (bench/kzg-peer.ts): each call answered with its value and its own time. */
interface PeerProcess {
  name: string;
  loadMs: number;
  call<T>(task: PeerRequest['task'], args: PeerRequest['args']): Promise<[T, number]>;
  close(): void;
}

function startPeer(spec: PeerSpec): Promise<PeerProcess> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./kzg-peer.ts', import.meta.url)), ['--peer', spec], {
    // peers run in Node (also when this runs in Bun or Deno: pippin there, the native peers in Node)
    execPath: process.versions.bun || (globalThis as { Deno?: unknown }).Deno ? 'node' : process.execPath,
    execArgv: ['--import', 'tsx'],
    // one thread for rust-eth-kzg (rayon reads it when its pool starts)
    env: { ...process.env, RAYON_NUM_THREADS: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (v: [unknown, number]) => void; reject: (e: Error) => void }>();
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const e = new Error(`bench:kzg: peer ${spec} exited (${code})`);
      reject(e);
      for (const w of waiting.values()) w.reject(e);
    });
    child.on('message', (m: { ready?: boolean; name: string; loadMs: number; id: number; value?: unknown; ms: number; error?: string }) => {
      if (m.ready) {
        resolve({
          name: m.name,
          loadMs: m.loadMs,
          call: <T>(task: PeerRequest['task'], args: PeerRequest['args']) =>
            new Promise<[T, number]>((res, rej) => {
              const id = next++;
              waiting.set(id, { resolve: res as (v: [unknown, number]) => void, reject: rej });
              child.send({ id, task, args });
            }),
          close: () => child.disconnect(),
        });
        return;
      }
      const w = waiting.get(m.id)!;
      waiting.delete(m.id);
      if (m.error !== undefined) w.reject(new Error(`bench:kzg: ${spec}: ${m.error}`));
      else w.resolve([m.value, m.ms]);
    });
  });
}

/** 64 of the 128 cell indices, a random choice fixed by the run, ascending (rust-eth-kzg refuses other orders). */
function recoverIndices(run: number): number[] {
  const order = Array.from({ length: 128 }, (_, i) => i);
  let s = (run * 2654435761) >>> 0;
  for (let i = 127; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order.slice(0, 64).sort((x, y) => x - y);
}

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
  // rust-eth-kzg is not a devDependency (examples/kzg-4844/peers.ts): by default it runs where installed
  const defaultPeers = PEERS.filter((p) => p !== 'rust-eth-kzg' || hasRustEthKzg());
  const peerNames = listFlag('peers', values.peers, PEERS, defaultPeers);
  if (!defaultPeers.includes('rust-eth-kzg')) console.error(`bench:kzg: rust-eth-kzg left out (not installed: ${RUST_ETH_KZG_INSTALL})`);
  const precomputes = intListFlag('ckzg-precompute', values['ckzg-precompute'], [0, 8], 0, 15);
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

  const peers: PeerProcess[] = [];
  const specs = peerNames.flatMap((name): PeerSpec[] => (name === 'c-kzg' ? precomputes.map((p) => `c-kzg:${p}` as PeerSpec) : name === 'rust-eth-kzg' ? ['rust-eth-kzg', 'rust-eth-kzg:precomp'] : [name]));
  for (const spec of specs) {
    log(`loading ${spec} in its process (timed once)…`);
    const p = await startPeer(spec);
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
      const row = await measurePippin(sync ? kzg.sync : kzg, blob, recoverIndices(run), run, hex, saw, timed);
      kzg.dispose();
      if (!warm) {
        record(impl, 'load', threads, loadMs);
        for (const [task, ms] of row) record(impl, task, threads, ms);
      }
      log(`run ${run}${warm ? ' (warm-up)' : ''}: ${impl} ${threads} thread(s): load ${loadMs.toFixed(0)} ms, ${row.map(([t, ms]) => `${t} ${ms.toFixed(1)} ms`).join(', ')}`);
    }
    for (const pip of pippins) pip.stopThreads();
    const blobHex = Buffer.from(blob).toString('hex');
    const indices = recoverIndices(run);
    for (const p of peers) {
      const [c, commitMs] = await p.call<string>('commit', [blobHex]);
      const [proof, proofMs] = await p.call<string>('blobProof', [blobHex, c]);
      if (p.name === 'micro-eth-signer' && !firstUse.has(p.name)) {
        log('  micro-eth-signer: first cells call (builds its FK20 tables)…');
        const [, ms] = await p.call('cellsAndProofs', [blobHex]);
        record(p.name, 'fk20-first-use', 1, ms);
        firstUse.add(p.name);
      }
      const [[cells, proofs], cellsMs] = await p.call<[string[], string[]]>('cellsAndProofs', [blobHex]);
      const [[allCells, allProofs], recoverMs] = await p.call<[string[], string[]]>('recover', [indices, indices.map((i) => cells[i])]);
      saw('commit', run, c);
      saw('blob-proof', run, proof);
      saw('cells-proofs', run, [...cells, ...proofs].join(''));
      saw('recover', run, [...allCells, ...allProofs].join(''));
      if (!warm) {
        record(p.name, 'commit', 1, commitMs);
        record(p.name, 'blob-proof', 1, proofMs);
        record(p.name, 'cells-proofs', 1, cellsMs);
        record(p.name, 'recover', 1, recoverMs);
      }
      log(`run ${run}${warm ? ' (warm-up)' : ''}: ${p.name}: commit ${commitMs.toFixed(1)} ms, blob-proof ${proofMs.toFixed(1)} ms, cells-proofs ${cellsMs.toFixed(1)} ms, recover ${recoverMs.toFixed(1)} ms`);
    }
    // the warm-up's results cross-checked before anything is timed
    const differ = warm ? [...seen].filter(([key, set]) => key.endsWith('|0') && set.size !== 1).map(([key]) => key.split('|')[0]) : [];
    if (differ.length > 0) {
      for (const p of peers) p.close();
      throw new Error(`bench:kzg: the implementations disagree on ${differ.join(', ')} (warm-up run): nothing timed`);
    }
  }
  for (const p of peers) p.close();
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
    console.log(`${p.name} / pippin${tag} (1 thread): commit ${ratio('commit')}× (tables ${ratio('commit', 'pippin+tables' + tag)}×), blob-proof ${ratio('blob-proof')}×, cells-proofs ${ratio('cells-proofs')}×, recover ${ratio('recover')}×`);
  }
  for (const p of peers.filter((x) => x.name.startsWith('rust-eth-kzg'))) {
    const tag = sync ? ' sync' : '';
    const times = (impl: string) => ((get(impl, 'cells-proofs', 1) ?? NaN) / (get(p.name, 'cells-proofs', 1) ?? NaN)).toFixed(2);
    console.log(`cells + cell proofs, 1 thread: pippin${tag} takes ${times('pippin' + tag)}× the time of ${p.name} (pippin+tables${tag}: ${times('pippin+tables' + tag)}×)`);
  }
  return ok ? 0 : 1;
}

/** One blob through every pippin task (the async methods, or kzg.sync's); the answers go to `saw`. */
async function measurePippin(
  kzg: Kzg | KzgSync,
  blob: Uint8Array,
  indices: number[],
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
  // a --baseline checkout may predate recovery
  if (typeof kzg.recoverCellsAndKzgProofs !== 'function') return [['fk20-first-use', firstMs], ['commit', commitMs], ['blob-proof', proofMs], ['cells-proofs', cellsProofsMs], ['cells', cellsMs]];
  const [[allCells, allProofs], recoverMs] = await timed(() => kzg.recoverCellsAndKzgProofs(indices, indices.map((i) => cells[i])));
  saw('commit', run, hex(c));
  saw('blob-proof', run, hex(proof));
  saw('cells-proofs', run, [...cells, ...proofs].map(hex).join(''));
  saw('cells', run, cellsOnly.map(hex).join(''));
  saw('recover', run, [...allCells, ...allProofs].map(hex).join(''));
  return [['fk20-first-use', firstMs], ['commit', commitMs], ['blob-proof', proofMs], ['cells-proofs', cellsProofsMs], ['cells', cellsMs], ['recover', recoverMs]];
}

runCli('bench:kzg', USAGE, main);
