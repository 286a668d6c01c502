/**
 * Run ONE MSM implementation in this process and print one JSON line to stdout.
 *
 *   npx tsx bench/peers/run-peer.ts --peer montgomery --log-size 12 --runs 5 [--seed 1] [--curve bls12-381|bn254]
 *
 * --peer is a known peer name (montgomery, ffjavascript, mcl, noble) or a path to any module that
 * exports the same interface ({ name, threads?, setup }; see ./types.ts), e.g. an adapter for pippin.
 *
 * The curve (default bls12-381) selects the input file and is passed to the module as the 4th
 * argument of setup(points, scalars, n, curve). A module that does not list the curve in its
 * `curves` export (default ['bls12-381']), or whose setup throws PeerUnavailableError, is reported
 * as skipped: {"impl","curve","logSize","threads","skipped":"<reason>"} (exit code 0).
 *
 * Steps: load inputs (bench/inputs.ts), setup (format conversion, untimed), one warm-up run, then
 * `runs` timed calls of run(). Output:
 *   {"impl","curve","logSize","threads","timesMs","medianMs","result":{"x":"0x..","y":"0x.."}|null}
 * Anything the libraries log goes to stderr, so stdout carries only that line.
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { CURVE, curveSpec, loadInputs, type CurveName } from "../inputs.js";
import { KNOWN_PEERS, type AffineResult, type PeerInstance, type PeerModule } from "./types.js";

export interface PeerRunOutput {
  impl: string;
  curve: string;
  logSize: number;
  threads: number;
  timesMs: number[];
  medianMs: number;
  result: { x: string; y: string } | null;
  /** Set (and timesMs/medianMs/result absent) when the peer could not run this configuration. */
  skipped?: string;
}

export type PeerSkippedOutput = Pick<PeerRunOutput, "impl" | "curve" | "logSize" | "threads"> & { skipped: string };

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

export async function runPeerInProcess(
  peer: string,
  logSize: number,
  runs: number,
  seed = 1,
  curve: CurveName = CURVE,
): Promise<PeerRunOutput | PeerSkippedOutput> {
  curveSpec(curve); // validates the name
  const mod = await importPeer(peer);
  const skipped = (reason: string): PeerSkippedOutput => ({
    impl: mod.name,
    curve,
    logSize,
    threads: mod.threads ?? 1,
    skipped: reason,
  });
  const supported = mod.curves ?? ["bls12-381"];
  if (!supported.includes(curve)) return skipped(`${mod.name} does not support ${curve} (only ${supported.join(", ")})`);
  const { n, points, scalars } = await loadInputs(logSize, seed, curve);
  let inst: PeerInstance;
  try {
    inst = await mod.setup(points, scalars, n, curve);
  } catch (e) {
    if (isUnavailable(e)) return skipped(e.message);
    throw e;
  }
  try {
    let result = await inst.run(); // warm-up
    const timesMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = await inst.run();
      timesMs.push(performance.now() - t0);
      const same = r === null ? result === null : result !== null && r.x === result.x && r.y === result.y;
      if (!same) throw new Error(`${mod.name}: result changed between runs`);
      result = r;
    }
    return {
      impl: mod.name,
      curve,
      logSize,
      threads: mod.threads ?? 1,
      timesMs: timesMs.map((t) => Math.round(t * 1000) / 1000),
      medianMs: Math.round(median(timesMs) * 1000) / 1000,
      result: resultToJson(result),
      ...inst.extra?.(),
    };
  } finally {
    await inst.dispose?.();
  }
}

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf("=");
    if (eq >= 0) out[a.slice(2, eq)] = a.slice(eq + 1);
    else out[a.slice(2)] = argv[++i] ?? "";
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const peer = args["peer"];
  const logSize = Number(args["log-size"]);
  const runs = Number(args["runs"] ?? "5");
  const seed = Number(args["seed"] ?? "1");
  const curve = args["curve"] ?? CURVE;
  if (!peer || !Number.isInteger(logSize) || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
    throw new Error(
      "usage: run-peer.ts --peer <name|module path> --log-size <k> [--runs 5] [--seed 1] [--curve bls12-381|bn254]",
    );
  }
  // keep stdout for the JSON line only
  const write = process.stdout.write.bind(process.stdout);
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const out = await runPeerInProcess(peer, logSize, runs, seed, curveSpec(curve).name);
  write(JSON.stringify(out) + "\n");
  // safety net if a library leaves something alive; does not itself keep the process alive
  setTimeout(() => process.exit(0), 2000).unref();
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  });
}
