/**
 * Run every peer MSM on the same inputs, each size × peer in a FRESH child process, and cross-check.
 *
 *   npx tsx bench/peers/run-all.ts --sizes 10,12 --runs 5 [--curve bls12-381|bn254]
 *                                  [--peers montgomery,ffjavascript,mcl,noble] [--seed 1]
 *                                  [--noble-max 12] [--reference-max 10] [--json]
 *
 * The curve (default bls12-381) selects the inputs (bench/inputs.ts), is handed to every child as
 * `--curve` (run-peer.ts passes it on to setup()), and selects the reference and the on-curve check.
 * Default peers per curve: DEFAULT_PEERS in ./types.ts. A peer that reports itself skipped (curve not
 * supported, API unavailable) gets a row with `skipped: true`, `ok: false` and the reason as note; it
 * is left out of the consensus.
 *
 * Each peer may be given as `{ peer, threads }` (a PeerSpec) to run it with a thread request: the
 * child gets `--threads` the way it gets `--curve` (run-peer.ts passes it to setup()), and the row
 * is named by rowName() in ./types.ts (pippin-2t, ffjavascript-mt). A plain name means 1 thread.
 *
 * A result is `ok` when it equals the consensus point of its size and that consensus is backed by
 * at least two libraries (rows of one library at different thread counts count once) or by the
 * independent reference. The reference (sizes up to --reference-max) is Σ [s_i] P_i computed one
 * scalar multiplication at a time with noble — no MSM algorithm involved. The point is also checked
 * to be on the curve.
 *
 * `runPeers(opts)` is exported for the main benchmark; peers may be names of modules in this folder
 * or paths to modules exporting the same interface (see ./types.ts and ./run-peer.ts).
 */
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { basename, resolve } from "node:path";
import { CURVE, CURVE_NAMES, curveSpec, loadInputs, pointsToBigints, scalarsToBigints, type CurveName } from "../inputs.js";
import { DEFAULT_PEERS, rowName, type ThreadRequest } from "./types.js";
import { median, type PeerRunOutput, type PeerSkippedOutput } from "./run-peer.js";
import { choiceFlag, intFlag, intListFlag, listFlag, parseFlags, runCli } from "../../src/cli-args.js";

export interface RunPeersOptions {
  /** log2 of the MSM sizes. */
  sizes: number[];
  /** Timed runs per (peer, size), after the warm-ups (run-peer.ts WARMUPS). Default 5. */
  runs?: number;
  /** Curve of the inputs. Default 'bls12-381'. */
  curve?: CurveName;
  /** Known peer names or module paths (1 thread), or PeerSpecs. Default: DEFAULT_PEERS[curve]. */
  peers?: (string | PeerSpec)[];
  seed?: number;
  /** noble is skipped above this log size (it is slow). Default 12. */
  nobleMaxLogSize?: number;
  /** The independent reference Σ[s_i]P_i is computed up to this log size. Default 10. */
  referenceMaxLogSize?: number;
  /** Per child-process time limit. Default 30 min. */
  timeoutMs?: number;
  /**
   * Rounds per size (default 1): every row's child process runs once per round, rows interleaved
   * (round 1: A, B, …; round 2: A, B, …), and a row's median is over the timed runs of all rounds,
   * so slow phases of a shared machine fall on every row alike.
   */
  rounds?: number;
  /** Progress messages (default: to stderr). */
  log?: (msg: string) => void;
}

/** One row to run: a peer (known name or module path) and its thread request (default 1). */
export interface PeerSpec {
  peer: string;
  threads?: ThreadRequest;
  /** a variant of the peer: environment for its child process, and a suffix for its row name */
  variant?: { suffix: string; env: Record<string, string> };
  /** the Node binary of its child process (default: this process's); see nodeVariant() */
  node?: string;
}

/** A spec's variant that runs it with another Node binary: row suffix `node<major>`, e.g. pippin-node24. */
export function nodeVariant(nodePath: string): { suffix: string; node: string; version: string } {
  const version = execFileSync(nodePath, ["--version"], { encoding: "utf8" }).trim();
  return { suffix: `node${version.replace(/^v/, "").split(".")[0]}`, node: nodePath, version };
}

/** A peer's run output (medianMs is NaN if the run failed) with the cross-check's verdict. */
export interface PeerResult extends Omit<PeerRunOutput, 'skipped'> {
  ok: boolean;
  /** The peer did not run (curve unsupported / API unavailable); the reason is in `note`. */
  skipped?: boolean;
  /** Why it is not ok (failure, skipped, mismatch, no corroboration). */
  note?: string;
  /** What the result was checked against. */
  checkedAgainst?: string;
}

const RUN_PEER = fileURLToPath(new URL("./run-peer.ts", import.meta.url));
const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A variant's row name: the peer's with the variant's suffix. */
function withSuffix(impl: string, variant: PeerSpec["variant"]): string {
  return variant?.suffix ? `${impl}-${variant.suffix}` : impl;
}

/** Library name for a row whose child failed before naming itself: the file name of a path. */
function peerLabel(peer: string): string {
  return basename(peer).replace(/\.[cm]?[jt]s$/, "");
}

/** Spawn `node --import tsx bench/peers/run-peer.ts ...` and parse its JSON line. */
export function spawnPeer(
  peer: string,
  logSize: number,
  runs: number,
  seed: number,
  timeoutMs = 30 * 60 * 1000,
  curve: CurveName = CURVE,
  threads: ThreadRequest = 1,
  variant?: PeerSpec["variant"],
  node: string = process.execPath,
): Promise<PeerRunOutput | PeerSkippedOutput> {
  const label = withSuffix(rowName(peerLabel(peer), threads), variant);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      node,
      [
        "--import",
        "tsx",
        RUN_PEER,
        "--peer",
        peer,
        "--log-size",
        String(logSize),
        "--runs",
        String(runs),
        "--seed",
        String(seed),
        "--curve",
        curve,
        "--threads",
        String(threads),
      ],
      { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...variant?.env } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${label} 2^${logSize}: timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const lines = stdout.split("\n").filter((l) => l.trim() !== "");
      if (code !== 0 || lines.length !== 1) {
        reject(new Error(`${label} 2^${logSize}: exit code ${code}, ${lines.length} stdout lines\n${stderr.trim()}`));
        return;
      }
      try {
        resolvePromise(JSON.parse(lines[0]) as PeerRunOutput | PeerSkippedOutput);
      } catch (e) {
        reject(new Error(`${label} 2^${logSize}: bad JSON: ${lines[0]}`));
      }
    });
  });
}

/** Σ [s_i] P_i one scalar multiplication at a time (noble), independent of any MSM algorithm. */
export async function referenceMsm(
  logSize: number,
  seed = 1,
  curve: CurveName = CURVE,
): Promise<{ x: string; y: string } | null> {
  const { points, scalars } = await loadInputs(logSize, seed, curve);
  const Point = curveSpec(curve).Point;
  const pts = pointsToBigints(points, curve);
  const scs = scalarsToBigints(scalars);
  let acc = Point.ZERO;
  for (let i = 0; i < pts.length; i++) {
    const Pi = Point.fromAffine(pts[i]);
    if (scs[i] !== 0n) acc = acc.add(Pi.multiply(scs[i]));
  }
  if (acc.is0()) return null;
  const a = acc.toAffine();
  return { x: "0x" + a.x.toString(16), y: "0x" + a.y.toString(16) };
}

function pointKey(r: { x: string; y: string } | null): string {
  return r === null ? "infinity" : `${BigInt(r.x).toString(16)},${BigInt(r.y).toString(16)}`;
}

function onCurve(r: { x: string; y: string } | null, curve: CurveName): boolean {
  if (r === null) return true;
  const { p, b } = curveSpec(curve);
  const x = BigInt(r.x);
  const y = BigInt(r.y);
  if (x >= p || y >= p) return false;
  return (y * y - (x * x * x + b)) % p === 0n;
}

/**
 * Cross-check the results of one size: each result is compared with the consensus point (the one
 * most libraries returned); the consensus must be corroborated by the reference (if given) or by
 * ≥ 2 libraries. Rows of one library (pippin, pippin-2t) count as one library: they share the code
 * that would be wrong. Mutates and returns `results`.
 */
export function crossCheck(
  results: PeerResult[],
  reference?: { x: string; y: string } | null,
  curve: CurveName = CURVE,
): PeerResult[] {
  const done = results.filter((r) => !Number.isNaN(r.medianMs));
  /** point → libraries that returned it */
  const libraries = new Map<string, Set<string>>();
  for (const r of done) {
    const key = pointKey(r.result);
    const libs = libraries.get(key) ?? new Set<string>();
    libs.add(r.library);
    libraries.set(key, libs);
  }
  let consensus: string | undefined;
  let best = 0;
  for (const [k, libs] of libraries) {
    if (libs.size > best) {
      best = libs.size;
      consensus = k;
    }
  }
  const refKey = reference === undefined ? undefined : pointKey(reference);
  for (const r of results) {
    if (Number.isNaN(r.medianMs)) {
      r.ok = false;
      continue;
    }
    const key = pointKey(r.result);
    const agreeing = [...(libraries.get(key) ?? [])].filter((l) => l !== r.library).length;
    const others = `${agreeing} other librar${agreeing === 1 ? "y" : "ies"}`;
    if (!onCurve(r.result, curve)) {
      r.ok = false;
      r.note = "result not on the curve";
    } else if (refKey !== undefined) {
      r.ok = key === refKey;
      r.checkedAgainst = `reference Σ[s]P + ${others}`;
      if (!r.ok) r.note = "differs from the reference";
    } else if (key !== consensus || best < 2) {
      r.ok = false;
      r.note = best < 2 ? "no other library to compare with" : "differs from the consensus";
    } else {
      r.ok = true;
      r.checkedAgainst = others;
    }
  }
  return results;
}

export async function runPeers(opts: RunPeersOptions): Promise<PeerResult[]> {
  const runs = opts.runs ?? 5;
  const seed = opts.seed ?? 1;
  const curve = curveSpec(opts.curve ?? CURVE).name;
  const specs = (opts.peers ?? [...DEFAULT_PEERS[curve]]).map((p) =>
    typeof p === "string"
      ? { peer: p, threads: 1 as ThreadRequest, variant: undefined, node: undefined }
      : { peer: p.peer, threads: p.threads ?? 1, variant: p.variant, node: p.node },
  );
  const rounds = opts.rounds ?? 1;
  const nobleMax = opts.nobleMaxLogSize ?? 12;
  const refMax = opts.referenceMaxLogSize ?? 10;
  const log = opts.log ?? ((m: string) => process.stderr.write(m + "\n"));
  const all: PeerResult[] = [];
  for (const logSize of opts.sizes) {
    // create the cached input file before the children read it
    const t0 = performance.now();
    await loadInputs(logSize, seed, curve);
    log(`${curve} 2^${logSize}: inputs ready (${(performance.now() - t0).toFixed(0)} ms)`);
    /** rows by spec index, their timed runs gathered over the rounds */
    const rows = new Map<number, PeerResult>();
    for (let round = 0; round < rounds; round++) {
      for (const [index, { peer, threads, variant, node }] of specs.entries()) {
        if (peer === "noble" && logSize > nobleMax) continue;
        const seen = rows.get(index);
        if (seen !== undefined && (seen.skipped || Number.isNaN(seen.medianMs))) continue;
        try {
          const raw = await spawnPeer(peer, logSize, runs, seed, opts.timeoutMs, curve, threads, variant, node);
          const out = { ...raw, impl: withSuffix(raw.impl, variant) };
          if ("skipped" in out && out.skipped !== undefined) {
            log(`2^${logSize}: ${out.impl} skipped: ${out.skipped}`);
            rows.set(index, { ...out, timesMs: [], medianMs: NaN, result: null, ok: false, skipped: true, note: `skipped: ${out.skipped}` });
            continue;
          }
          const { skipped: _none, ...done } = out as PeerRunOutput;
          if (seen !== undefined && pointKey(seen.result) !== pointKey(done.result)) {
            throw new Error(`round ${round + 1} returned another point than round 1`);
          }
          const timesMs = [...(seen?.timesMs ?? []), ...done.timesMs];
          rows.set(index, { ...done, timesMs, medianMs: median(timesMs), ok: false });
          log(`2^${logSize}: ${done.impl} median ${done.medianMs.toFixed(1)} ms${rounds > 1 ? ` (round ${round + 1}/${rounds})` : ""}`);
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e);
          const impl = withSuffix(rowName(peerLabel(peer), threads), variant);
          log(`2^${logSize}: ${impl} FAILED: ${msg}`);
          rows.set(index, {
            impl,
            library: peerLabel(peer),
            curve,
            logSize,
            threads: threads === "auto" ? 0 : threads,
            timesMs: [],
            medianMs: NaN,
            result: null,
            ok: false,
            note: msg.split("\n")[0],
          });
        }
      }
    }
    const sizeResults = [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
    let reference: { x: string; y: string } | null | undefined;
    if (logSize <= refMax) {
      const t1 = performance.now();
      reference = await referenceMsm(logSize, seed, curve);
      log(`2^${logSize}: reference Σ[s]P computed (${(performance.now() - t1).toFixed(0)} ms)`);
    }
    all.push(...crossCheck(sizeResults, reference, curve));
  }
  return all;
}

export function formatTable(results: PeerResult[]): string {
  const rows = [["impl", "threads", "logSize", "medianMs", "ok", "checked against / note"]];
  for (const r of results) {
    rows.push([
      r.impl,
      r.threads > 0 ? String(r.threads) : "-",
      String(r.logSize),
      r.skipped ? "skipped" : Number.isNaN(r.medianMs) ? "failed" : r.medianMs.toFixed(1),
      r.ok ? "ok" : r.skipped ? "-" : "FAIL",
      r.ok ? (r.checkedAgainst ?? "") : (r.note ?? ""),
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  return rows
    .map((row) => row.map((cell, c) => (c === 1 || c === 3 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join("  ").trimEnd())
    .join("\n");
}

const USAGE = `usage: run-all.ts [--sizes 10,12 (0…24)] [--runs 5] [--curve ${CURVE_NAMES.join("|")}]
                  [--peers montgomery,ffjavascript,mcl,noble] [--seed 1] [--noble-max 12] [--reference-max 10] [--json]`;

async function main(): Promise<number> {
  const { values } = parseFlags(process.argv.slice(2), {
    sizes: { type: "string" },
    runs: { type: "string" },
    curve: { type: "string" },
    peers: { type: "string" },
    seed: { type: "string" },
    "noble-max": { type: "string" },
    "reference-max": { type: "string" },
    json: { type: "boolean" },
  });
  const curve = choiceFlag<CurveName>("curve", values.curve, CURVE, CURVE_NAMES);
  const results = await runPeers({
    sizes: intListFlag("sizes", values.sizes, [10, 12], 0, 24),
    runs: intFlag("runs", values.runs, 5, 1, 1000),
    curve,
    peers: listFlag("peers", values.peers, DEFAULT_PEERS[curve]),
    seed: intFlag("seed", values.seed, 1, 0, 0xffffffff),
    nobleMaxLogSize: intFlag("noble-max", values["noble-max"], 12, 0, 24),
    referenceMaxLogSize: intFlag("reference-max", values["reference-max"], 10, 0, 24),
  });
  if (values.json) for (const r of results) console.log(JSON.stringify(r));
  else console.log(formatTable(results));
  return results.some((r) => !r.ok && !r.skipped) ? 1 : 0;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) runCli("run-all", USAGE, main, true);
