/**
 * EIP-4844 blob commitments: pippin's example (examples/kzg-4844, prepared bases) against kzg-wasm@1.0.0
 * and micro-eth-signer, in one process, on the official setup:
 *   (1) load + validate the setup ('load'), (2) one commitment ('commit-1'), (3) 6 commitments
 *   ('commit-6': pippin's msmBatch; the peers commit one by one, having no batch call; pippin's
 *   6 single calls are the row 'commit-6-single').
 * pippin on 1 and 2 threads (the pool started or stopped around its rows), without and with a
 * fixed-base table (row 'pippin+table': `precompute: true`, its build counted in 'load'); the peers are
 * single-threaded. Runs are interleaved (pippin 1 thread, 2 threads, each peer, then the next run);
 * the median of --runs. The peers' setup loading (≈ 10–20 s each) is timed once. Every commitment
 * is checked against the others' (ok = all implementations agree on every blob they committed).
 *
 *   npm run bench:kzg -- [--runs 3] [--threads 1,2] [--peers kzg-wasm,micro-eth-signer] [--json]
 */
import { intFlag, intListFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import { startThreads, stopThreads } from '../src/index.js';
import { loadTrustedSetup, type BlobCommitter } from '../examples/kzg-4844/kzg.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';
import { loadKzgWasm, loadMicroEthSigner, type PeerKzg } from '../examples/kzg-4844/peers.js';

const PEERS = ['kzg-wasm', 'micro-eth-signer'] as const;
const USAGE = `usage: npm run bench:kzg -- [--runs 3] [--threads 1,2] [--peers ${PEERS.join(',')}] [--json]`;

interface Row {
  impl: string;
  task: 'load' | 'commit-1' | 'commit-6' | 'commit-6-single';
  threads: number;
  medianMs: number;
  ok: boolean;
}

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), { runs: { type: 'string' }, threads: { type: 'string' }, peers: { type: 'string' }, json: { type: 'boolean' } });
  const runs = intFlag('runs', values.runs, 3, 1, 100);
  const threadCounts = intListFlag('threads', values.threads, [1, 2], 1, 256);
  const peerNames = listFlag('peers', values.peers, PEERS, PEERS);
  const log = values.json ? () => {} : (s: string) => console.error(s);
  const blobs = Array.from({ length: 6 }, (_, i) => randomBlob(100 + i));
  const hex = (b: Uint8Array) => '0x' + Buffer.from(b).toString('hex');
  /** commitments by blob index, from every implementation: ok iff they agree */
  const seen: Map<number, Set<string>> = new Map(blobs.map((_, i) => [i, new Set<string>()]));
  const times = new Map<string, number[]>();
  const record = (impl: string, task: Row['task'], threads: number, ms: number) => {
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
    const p = await (name === 'kzg-wasm' ? loadKzgWasm() : loadMicroEthSigner());
    record(p.name, 'load', 1, p.loadMs);
    peers.push(p);
  }
  let committer: BlobCommitter | undefined;
  for (let run = 0; run < runs + 1; run++) {
    const warm = run === 0; // the first round warms up (JIT, pool start) and is not recorded
    for (const [threads, table] of threadCounts.flatMap((t) => [[t, false], [t, true]] as const)) {
      const impl = table ? 'pippin+table' : 'pippin';
      if (threads === 1) stopThreads();
      else await startThreads(threads);
      committer?.dispose();
      const [kzg, loadMs] = await timed(() => loadTrustedSetup({ threads, precompute: table }));
      committer = kzg;
      const [one, oneMs] = await timed(() => kzg.commit(blobs[0]));
      const [six, sixMs] = await timed(() => kzg.commitMany(blobs));
      const [, singleMs] = await timed(async () => {
        for (const b of blobs) await kzg.commit(b);
      });
      seen.get(0)!.add(hex(one));
      six.forEach((c, i) => seen.get(i)!.add(hex(c)));
      if (!warm) {
        record(impl, 'load', threads, loadMs);
        record(impl, 'commit-1', threads, oneMs);
        record(impl, 'commit-6', threads, sixMs);
        record(impl, 'commit-6-single', threads, singleMs);
      }
      log(`run ${run}${warm ? ' (warm-up)' : ''}: ${impl} ${threads} thread(s): load ${loadMs.toFixed(0)} ms, 1 blob ${oneMs.toFixed(1)} ms, 6 blobs ${sixMs.toFixed(1)} ms (6 calls ${singleMs.toFixed(1)} ms)`);
    }
    if (warm) continue;
    for (const p of peers) {
      const [one, oneMs] = await timed(() => p.commit(blobs[0]));
      const [six, sixMs] = await timed(() => blobs.map((b) => p.commit(b)));
      seen.get(0)!.add(one);
      six.forEach((c, i) => seen.get(i)!.add(c));
      record(p.name, 'commit-1', 1, oneMs);
      record(p.name, 'commit-6', 1, sixMs);
      log(`run ${run}: ${p.name}: 1 blob ${oneMs.toFixed(0)} ms, 6 blobs ${sixMs.toFixed(0)} ms`);
    }
  }
  stopThreads();
  committer?.dispose();
  const ok = [...seen.values()].every((s) => s.size === 1);
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[(a.length - 1) >> 1];
  const rows: Row[] = [...times].map(([key, ms]) => {
    const [impl, task, threads] = key.split('|');
    return { impl, task: task as Row['task'], threads: Number(threads), medianMs: Number(median(ms).toFixed(2)), ok };
  });
  if (values.json) {
    console.log(JSON.stringify(rows, null, 2));
    return ok ? 0 : 1;
  }
  const tasks: Row['task'][] = ['load', 'commit-1', 'commit-6', 'commit-6-single'];
  const impls = [...new Set(rows.map((r) => `${r.impl}|${r.threads}`))];
  const cell = (impl: string, task: string) => {
    const r = rows.find((x) => `${x.impl}|${x.threads}` === impl && x.task === task);
    return r ? (r.medianMs >= 1000 ? `${(r.medianMs / 1000).toFixed(2)} s` : `${r.medianMs.toFixed(1)} ms`) : '';
  };
  console.log(`\nmedian of ${runs} run(s) (peers' load: once); commitments ${ok ? 'agree' : 'DISAGREE'} across implementations\n`);
  console.log(`| implementation | threads | ${tasks.join(' | ')} |\n|---|---|${tasks.map(() => '---|').join('')}`);
  for (const impl of impls) console.log(`| ${impl.split('|')[0]} | ${impl.split('|')[1]} | ${tasks.map((t) => cell(impl, t)).join(' | ')} |`);
  const get = (impl: string, task: string, threads: number) => rows.find((r) => r.impl === impl && r.task === task && r.threads === threads)?.medianMs;
  for (const [t, impl] of threadCounts.flatMap((t) => [[t, 'pippin'], [t, 'pippin+table']] as const)) {
    const p1 = get(impl, 'commit-1', t);
    const b6 = get(impl, 'commit-6', t);
    const s6 = get(impl, 'commit-6-single', t);
    const peersLine = peers.map((p) => `${p.name} ${((get(p.name, 'commit-1', 1) ?? NaN) / (p1 ?? NaN)).toFixed(1)}× slower on 1 blob`).join(', ');
    console.log(`${impl} ${t} thread(s): msmBatch of 6 ${((s6 ?? NaN) / (b6 ?? NaN)).toFixed(2)}× faster than 6 calls; ${peersLine}`);
  }
  return ok ? 0 : 1;
}

runCli('bench:kzg', USAGE, main);
