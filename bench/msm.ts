/**
 * MSM benchmark: pippin and its peers on identical inputs, each implementation in a fresh process,
 * median of several runs after two warm-ups, every result cross-checked (bench/peers/run-all.ts).
 *
 *   npm run bench:msm -- [--curve bls12-381|bn254] --sizes 10,12,14,16,18 [--runs 5] [--threads 1,2]
 *                        [--validate on-curve,full,none] [--peers ffjavascript,mcl,noble] [--seed 1]
 *                        [--noble-max 12] [--reference-max 10] [--rounds 1] [--node PATH,…] [--baseline DIR] [--json]
 *
 * --curve (default bls12-381) selects the inputs (bench/inputs.ts: BLS12-381 x‖y 48-byte BE, BN254
 * x‖y 32-byte BE = EIP-196) and is passed to every child process; peers default per curve
 * (bls12-381: montgomery, ffjavascript, mcl, noble; bn254: ffjavascript, mcl, noble).
 * pippin's timing includes decoding the point bytes and its validation: --validate lists the levels
 * to measure (default on-curve; rows `pippin` for on-curve, `pippin-full`, `pippin-none`, each a child
 * process with PIPPIN_BENCH_VALIDATE set); the peers do not validate. The summary gives each level's
 * time over the `none` row of the same thread count when that level is measured. If pippin has no
 * API for the curve it is listed as skipped. noble runs at
 * log sizes ≤ 12 only (--noble-max to change); results at log sizes ≤ 10 are also checked against
 * the naive Σ[s_i]P_i (--reference-max to change).
 *
 * --threads (default 1) lists pippin's thread counts: pippin is measured once per count, each in a
 * fresh child process given `--threads N` (rows `pippin`, `pippin-2t`, …; bench/peers/pippin.ts
 * starts N workers, or stops them for 1). When a count > 1 is listed, the peers with a
 * multi-threaded mode of their own (MULTI_THREADED_PEERS: ffjavascript, one worker per CPU) are
 * also measured in it as `<peer>-mt`, besides their single-thread row; the other peers have none
 * (montgomery on npm is 0.2.1 only, without a threaded MSM; a note says so). The native peers
 * (COUNT_THREADED_PEERS: blst-native, arkworks-native; Rust, built on demand, bench/peers/native.ts)
 * take a count: measured at every listed count like pippin (blst-native, blst-native-2t, …). The summary gives,
 * per size, pippin's time per thread count, its speed-up over pippin on 1 thread, and every peer
 * row's median divided by that pippin time. --json prints every row (impl, library, threads, …).
 *
 * --rounds R runs every row's child process R times, rows interleaved (A B … A B …), its median over
 * all rounds' timed runs: on a shared machine, ratios of one run with rounds are the ones to quote.
 * --node lists Node binaries (default: the one running this script): every row runs once per binary,
 * rows of a binary other than this one named with `-node<major>` (pippin-node24, montgomery-node24);
 * `--node "$(bash scripts/node24.sh),$(which node)"` compares Node 24 with the current Node in one run.
 * JSON rows carry `node` (the version that ran them).
 *
 * --baseline DIR adds pippin as built in another checkout DIR (its bench/peers/pippin.ts and src,
 * generated first: `npm run generate` there) at every thread count and level, rows `pippin-base`,
 * `pippin-2t-base`, …, interleaved with this tree's under --rounds; the summary gives each one's
 * median over this tree's row of the same thread count. E.g. DIR = a clone at the main branch.
 *
 * --group g2 runs the G2 benchmark instead (bench/g2.ts: its own peers, one process, rounds interleaved).
 *
 * Exit code 0 iff every implementation that ran is ok.
 */
import { fileURLToPath } from 'node:url';
import { CURVE_NAMES, type CurveName } from './inputs.js';
import { formatTable, nodeVariant, runPeers, type PeerResult, type PeerSpec } from './peers/run-all.js';
import { COUNT_THREADED_PEERS, DEFAULT_PEERS, MULTI_THREADED_PEERS } from './peers/types.js';
import { WARMUPS } from './peers/run-peer.js';
import { UsageError, choiceFlag, intFlag, intListFlag, listFlag, parseFlags, runCli } from '../src/cli-args.js';
import { VALIDATIONS } from '../src/api/options.js';
import { formatG2, runG2Bench } from './g2.js';
import { G2_PEERS } from './g2-peers.js';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const USAGE = `usage: npm run bench:msm -- [--curve ${CURVE_NAMES.join('|')}] [--sizes 10,12,14,16 (0…24)] [--runs 5] [--threads 1,2 (1…256)]
                            [--validate ${VALIDATIONS.join(',')}] [--peers montgomery,yrrid,ffjavascript,mcl,noble,blst-native,arkworks-native] [--seed 1] [--noble-max 12] [--reference-max 10]
                            [--rounds 1] [--node PATH,… (Node binaries)] [--baseline DIR (another checkout's pippin)] [--json]
                            [--group g1|g2]  (g2: bls12-381 and bn254, one process, runs interleaved: bench/g2.ts; --peers ${G2_PEERS.join(',')}
                                              by default; noble above 2^12: 1 timed run after warm-ups on 2^10 points; --peers ffjavascript,ffjavascript-workers,mcl skips it)`;

/** --group g2: the G2 benchmark of bench/g2.ts (one process, interleaved runs), same flags where they apply. */
async function g2Main(values: Record<string, string | boolean | undefined>): Promise<number> {
  const json = values.json === true;
  const curve = choiceFlag<CurveName>('curve', values.curve as string | undefined, 'bls12-381', CURVE_NAMES);
  const validate = listFlag('validate', values.validate as string | undefined, ['on-curve'], VALIDATIONS);
  if (validate.length !== 1) throw new UsageError('--group g2 measures one validation level');
  const rows = await runG2Bench({
    curve,
    sizes: intListFlag('sizes', values.sizes as string | undefined, [12, 14], 0, 24),
    runs: intFlag('runs', values.runs as string | undefined, 5, 1, 1000),
    threads: intListFlag('threads', values.threads as string | undefined, [1], 1, 256),
    seed: intFlag('seed', values.seed as string | undefined, 1, 0, 0xffffffff),
    validate: validate[0],
    peers: listFlag('peers', values.peers as string | undefined, G2_PEERS, G2_PEERS),
    log: json ? () => {} : (s) => console.error(s),
  });
  if (json) console.log(JSON.stringify(rows, null, 2));
  else {
    let cpu = '?';
    try {
      cpu = /Model name:\s*(.*)/.exec(execFileSync('lscpu', { encoding: 'utf8' }))?.[1] ?? '?';
    } catch {}
    console.log(`G2 MSM on ${curve}, ${rows[0]?.timesMs.length ?? 0} timed run(s) after 2 warm-ups, interleaved in one process, median in ms; ${cpu}, Node ${process.version}\n`);
    console.log(formatG2(rows));
  }
  return rows.every((r) => r.ok) ? 0 : 1;
}

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), {
    curve: { type: 'string' },
    sizes: { type: 'string' },
    runs: { type: 'string' },
    threads: { type: 'string' },
    validate: { type: 'string' },
    peers: { type: 'string' },
    seed: { type: 'string' },
    'noble-max': { type: 'string' },
    'reference-max': { type: 'string' },
    rounds: { type: 'string' },
    node: { type: 'string' },
    baseline: { type: 'string' },
    json: { type: 'boolean' },
    group: { type: 'string' },
  });
  const json = values.json === true;
  if (choiceFlag('group', values.group, 'g1', ['g1', 'g2']) === 'g2') return g2Main(values);
  const curve = choiceFlag<CurveName>('curve', values.curve, 'bls12-381', CURVE_NAMES);
  const sizes = intListFlag('sizes', values.sizes, [10, 12, 14, 16], 0, 24);
  const runs = intFlag('runs', values.runs, 5, 1, 1000);
  const peers = listFlag('peers', values.peers, DEFAULT_PEERS[curve]);
  const threadCounts = intListFlag('threads', values.threads, [1], 1, 256);
  const multi = threadCounts.some((t) => t > 1);
  const pippin = fileURLToPath(new URL('./peers/pippin.ts', import.meta.url));
  const levels = listFlag('validate', values.validate, ['on-curve'], VALIDATIONS);
  const nodes = listFlag('node', values.node, [process.execPath]).map((path) => {
    if (path === process.execPath) return { path, suffix: undefined, version: process.version };
    try {
      const v = nodeVariant(path);
      return { path, suffix: v.version === process.version ? undefined : v.suffix, version: v.version };
    } catch (e) {
      throw new UsageError(`--node: cannot run ${JSON.stringify(path)} --version (${e instanceof Error ? e.message.split('\n')[0] : e})`);
    }
  });
  const perNode = (spec: PeerSpec): PeerSpec[] =>
    nodes.map(({ path, suffix }) => ({
      ...spec,
      node: path,
      variant: {
        suffix: [spec.variant?.suffix, suffix].filter((x) => x !== undefined).join('-'),
        env: { ...spec.variant?.env },
      },
    }));
  const baseline = values.baseline === undefined ? undefined : resolve(values.baseline, 'bench/peers/pippin.ts');
  if (baseline !== undefined && !existsSync(baseline)) throw new UsageError(`--baseline: no ${baseline}`);
  const specs: PeerSpec[] = ([
    ...[pippin, ...(baseline ? [baseline] : [])].flatMap((peer) =>
      levels.flatMap((level) =>
        threadCounts.map((threads): PeerSpec => {
          const suffix = [level === 'on-curve' ? undefined : level, peer === baseline ? 'base' : undefined].filter((x) => x !== undefined).join('-');
          return { peer, threads, variant: suffix ? { suffix, env: level === 'on-curve' ? {} : { PIPPIN_BENCH_VALIDATE: level } } : undefined };
        }),
      ),
    ),
    ...peers.flatMap((peer): PeerSpec[] =>
      multi && MULTI_THREADED_PEERS.includes(peer)
        ? [{ peer }, { peer, threads: 'auto' }]
        : COUNT_THREADED_PEERS.includes(peer)
          ? threadCounts.map((threads) => ({ peer, threads }))
          : [{ peer }],
    ),
  ] as PeerSpec[]).flatMap(perNode);

  const results = await runPeers({
    sizes,
    runs,
    curve,
    seed: intFlag('seed', values.seed, 1, 0, 0xffffffff),
    peers: specs,
    nobleMaxLogSize: intFlag('noble-max', values['noble-max'], 12, 0, 24),
    referenceMaxLogSize: intFlag('reference-max', values['reference-max'], 10, 0, 24),
    rounds: intFlag('rounds', values.rounds, 1, 1, 100),
    log: json ? () => {} : undefined,
  });
  if (json) {
    console.log(JSON.stringify(results.map((r) => ({ ...r, curve })), null, 2));
  } else {
    console.log(`curve: ${curve}, ${runs} timed run(s) after ${WARMUPS} warm-ups, median in ms, one fresh process per row\n`);
    console.log(formatTable(results));
    if (multi && peers.includes('montgomery')) {
      console.log('\nnote: montgomery on npm (0.2.1, the only published version) has no threaded MSM; its row is single-threaded');
    }
    console.log(
      multi
        ? '\npippin per thread count: median, speed-up over pippin on 1 thread, and each peer row\'s median / that median (peers on the same Node):'
        : '\nspeed-up of pippin (peer median / pippin median, peers on the same Node):',
    );
    for (const size of sizes) console.log(summaryLines(results.filter((r) => r.logSize === size), size).join('\n'));
  }
  return results.every((r) => r.ok || r.skipped) ? 0 : 1;
}

/** Summary of one size: a line per pippin thread count. */
function summaryLines(rows: PeerResult[], size: number): string[] {
  const mine = rows.filter((r) => r.library === 'pippin');
  const isBase = (r: PeerResult) => /-base(-|$)/.test(r.impl);
  const levelOf = (r: PeerResult) => /-(full|none)(-base)?(-node\d+)?$/.exec(r.impl)?.[1] ?? 'on-curve';
  const others = rows.filter((r) => r.library !== 'pippin' && r.ok);
  if (mine.length === 0) return [`  2^${size}: pippin not run`];
  const width = Math.max(...mine.map((r) => r.impl.length));
  return mine.map((r) => {
    const head = `  2^${size}: ${r.impl.padEnd(width)}`;
    if (!r.ok) return `${head}  ${r.skipped ? r.note : `not ok${r.note ? ` (${r.note})` : ''}`}`;
    const extra = r as unknown as { bytesPerPoint?: number };
    const single = mine.find((m) => m.threads === 1 && m.ok && levelOf(m) === levelOf(r) && m.node === r.node && isBase(m) === isBase(r));
    const none = mine.find((m) => m.threads === r.threads && m.ok && levelOf(m) === 'none' && m.node === r.node && isBase(m) === isBase(r));
    const current = isBase(r) ? mine.find((m) => m.threads === r.threads && m.ok && levelOf(m) === levelOf(r) && m.node === r.node && !isBase(m)) : undefined;
    const vsCurrent = current ? `${(r.medianMs / current.medianMs).toFixed(2)}× this tree's time, ` : '';
    const vsSingle =
      r.threads === 1 ? '' : single ? `${(single.medianMs / r.medianMs).toFixed(2)}× over 1 thread, ` : 'no 1-thread row, ';
    const vsNone = none && none !== r ? `${(r.medianMs / none.medianMs).toFixed(2)}× the none row, ` : '';
    return (
      `${head}  ${r.medianMs.toFixed(1).padStart(8)} ms  (${vsCurrent}${vsSingle}${vsNone}${extra.bytesPerPoint ?? '?'} bytes/point peak)  ` +
      others.filter((o) => o.node === r.node).map((o) => `${o.impl} ${(o.medianMs / r.medianMs).toFixed(2)}×`).join('  ')
    );
  });
}

runCli('bench:msm', USAGE, main, true);
