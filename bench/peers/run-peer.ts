/**
 * Run ONE MSM implementation in this process and print one JSON line to stdout.
 *
 *   npx tsx bench/peers/run-peer.ts --peer montgomery --log-size 12 --runs 5 [--seed 1] [--curve bls12-381|bn254]
 *                                   [--threads 1|<N>|auto]
 *
 * --peer is a known peer name (montgomery, ffjavascript, mcl, noble, blst-native, arkworks-native) or a path to any module that
 * exports the same interface ({ name, threads?, threading?, curves?, setup }; see ./types.ts), e.g.
 * the adapter for pippin.
 *
 * The curve (default bls12-381) selects the input file and is passed to the module as the 4th
 * argument of setup(points, scalars, n, curve, threads). --threads (default 1) is passed the same
 * way as the 5th: a thread count, or `auto` = the library's own multi-threaded mode. A module that
 * does not list the curve in its `curves` export (default ['bls12-381']), that is asked for threads
 * its `threading` export does not declare (default: 1 only), or whose setup throws
 * PeerUnavailableError, is reported as skipped:
 *   {"impl","library","curve","logSize","threads","skipped":"<reason>"} (exit code 0).
 *
 * Steps: load inputs (bench/inputs.ts), setup (format conversion, worker start-up; untimed), one
 * WARMUPS (2) untimed warm-up runs, then `runs` timed calls of run() (the time is the instance's lastRunMs() when it has one, else the wall time around run()), then dispose() (stops workers). Output:
 *   {"impl","library","curve","logSize","threads","node","timesMs","medianMs","result":{"x":"0x..","y":"0x.."}|null}
 * `node` is the version of the Node that ran it, `library` is the module's name, `impl` the row name (rowName in ./types.ts: pippin, pippin-2t,
 * ffjavascript-mt) and `threads` the threads the run used (the library's worker count for `auto`).
 * Anything the libraries log goes to stderr, so stdout carries only that line.
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CURVE, CURVE_NAMES, curveSpec, loadInputs, type CurveName } from "../inputs.js";
import { UsageError, choiceFlag, intFlag, parseFlags, runCli } from "../../src/cli-args.js";
import {
  KNOWN_PEERS,
  rowName,
  type AffineResult,
  type PeerInstance,
  type PeerModule,
  type ThreadRequest,
} from "./types.js";

export interface PeerRunOutput {
  /** Row name: the library's name, with -<N>t / -mt for multi-thread rows. */
  impl: string;
  /** The module's name (the same for every thread count of one library). */
  library: string;
  curve: string;
  logSize: number;
  /** Threads the run used (for `auto`: what the instance reports; 0 if it did not run). */
  threads: number;
  /** the Node version that ran it (process.version) */
  node?: string;
  timesMs: number[];
  medianMs: number;
  result: { x: string; y: string } | null;
  /** Set (and timesMs/medianMs/result absent) when the peer could not run this configuration. */
  skipped?: string;
}

export type PeerSkippedOutput = Pick<PeerRunOutput, "impl" | "library" | "curve" | "logSize" | "threads"> & {
  skipped: string;
};

/** Parses a --threads value: an integer 1…256 or `auto` (UsageError otherwise). */
export function parseThreadRequest(s: string): ThreadRequest {
  if (s === "auto") return "auto";
  if (!/^\d+$/.test(s) || Number(s) < 1 || Number(s) > 256) throw new UsageError(`--threads: '${s}' is not an integer in 1…256 or auto`);
  return Number(s);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function resultToJson(r: AffineResult | null): { x: string; y: string } | null {
  return r === null ? null : { x: "0x" + r.x.toString(16), y: "0x" + r.y.toString(16) };
}

export async function importPeer(peer: string): Promise<PeerModule> {
  const known = (KNOWN_PEERS as readonly string[]).includes(peer);
  const url = known
    ? new URL(`./${peer}.ts`, import.meta.url).href
    : pathToFileURL(isAbsolute(peer) ? peer : resolve(process.cwd(), peer)).href;
  const mod = (await import(url)) as Partial<PeerModule>;
  if (typeof mod.name !== "string" || typeof mod.setup !== "function") {
    throw new Error(`${peer}: module must export name and setup()`);
  }
  return mod as PeerModule;
}

function isUnavailable(e: unknown): e is Error {
  return e instanceof Error && e.name === "PeerUnavailableError";
}

/** Untimed runs before the timed ones, the same for every peer. */
export const WARMUPS = 2;

export async function runPeerInProcess(
  peer: string,
  logSize: number,
  runs: number,
  seed = 1,
  curve: CurveName = CURVE,
  threads: ThreadRequest = 1,
): Promise<PeerRunOutput | PeerSkippedOutput> {
  curveSpec(curve); // validates the name
  const mod = await importPeer(peer);
  const impl = rowName(mod.name, threads);
  const requested = threads === 1 ? (mod.threads ?? 1) : threads === "auto" ? 0 : threads;
  const skipped = (reason: string): PeerSkippedOutput => ({
    impl,
    library: mod.name,
    curve,
    logSize,
    threads: requested,
    skipped: reason,
  });
  const supported = mod.curves ?? ["bls12-381"];
  if (!supported.includes(curve)) return skipped(`${mod.name} does not support ${curve} (only ${supported.join(", ")})`);
  const threadsOk =
    threads === 1 || (threads === "auto" ? mod.threading === "auto" : mod.threading === "count");
  if (!threadsOk) return skipped(`${mod.name} has no ${threads === "auto" ? "multi-threaded mode" : `${threads}-thread mode`}`);
  const { n, points, scalars } = await loadInputs(logSize, seed, curve);
  let inst: PeerInstance;
  try {
    inst = await mod.setup(points, scalars, n, curve, threads);
  } catch (e) {
    if (isUnavailable(e)) return skipped(e.message);
    throw e;
  }
  try {
    // warm-ups (untimed): the engines compile Wasm lazily and tier up hot functions while they run,
    // and workers tier up too; two runs reach steady state for every peer here
    let result = await inst.run();
    for (let w = 1; w < WARMUPS; w++) {
      const r = await inst.run();
      if (r === null ? result !== null : result === null || r.x !== result.x || r.y !== result.y) throw new Error(`${mod.name}: result changed between runs`);
    }
    const timesMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await inst.run();
      const wall = performance.now() - t0;
      timesMs.push(inst.lastRunMs?.() ?? wall);
      const same = r === null ? result === null : result !== null && r.x === result.x && r.y === result.y;
      if (!same) throw new Error(`${mod.name}: result changed between runs`);
      result = r;
    }
    return {
      impl,
      library: mod.name,
      curve,
      logSize,
      threads: inst.threads ?? requested,
      node: process.version,
      timesMs: timesMs.map((t) => Math.round(t * 1000) / 1000),
      medianMs: Math.round(median(timesMs) * 1000) / 1000,
      result: resultToJson(result),
      ...inst.extra?.(),
    };
  } finally {
    await inst.dispose?.();
  }
}

const USAGE =
  "usage: run-peer.ts --peer <name|module path> --log-size <0…24> [--runs 5] [--seed 1] [--curve bls12-381|bn254] [--threads 1|<N>|auto]";

async function main(): Promise<void> {
  const { values } = parseFlags(process.argv.slice(2), {
    peer: { type: "string" },
    "log-size": { type: "string" },
    runs: { type: "string" },
    seed: { type: "string" },
    curve: { type: "string" },
    threads: { type: "string" },
  });
  const peer = values.peer;
  if (!peer) throw new UsageError("--peer is required");
  if (values["log-size"] === undefined) throw new UsageError("--log-size is required");
  const logSize = intFlag("log-size", values["log-size"], 0, 0, 24);
  const runs = intFlag("runs", values.runs, 5, 1, 1000);
  const seed = intFlag("seed", values.seed, 1, 0, 0xffffffff);
  const curve = choiceFlag<CurveName>("curve", values.curve, CURVE, CURVE_NAMES);
  const threads = parseThreadRequest(values.threads ?? "1");
  // keep stdout for the JSON line only
  const write = process.stdout.write.bind(process.stdout);
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const out = await runPeerInProcess(peer, logSize, runs, seed, curve, threads);
  write(JSON.stringify(out) + "\n");
  // safety net if a library leaves something alive; does not itself keep the process alive
  setTimeout(() => process.exit(0), 2000).unref();
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) runCli("run-peer", USAGE, main, true);
