/**
 * Native peers (blst-native.ts, arkworks-native.ts): a Rust program in bench/native/ (Cargo.lock
 * pinned) run as a child of the peer process, kept alive across the runs.
 *
 * Builds, on demand and cached by cargo in bench/native/target/ (gitignored):
 * - `target/single`: feature `single` (blst's `no-threads`: its thread pool compiled out; arkworks
 *   serial) for 1-thread rows;
 * - `target/threads`: feature `parallel` (blst's pool; ark-ec's rayon MSM) for N-thread rows, N ≥ 2:
 *   the program cuts its CPU affinity to N CPUs before blst sizes its pool (skipped if fewer).
 * `cargo build --release --offline` first, online if that fails (first build about 1–2 min per
 * flavour); no cargo on PATH → the row is skipped with a note.
 *
 * setup() sends the benchmark's input bytes as they are (bench/inputs.ts layout) on the child's
 * stdin; the child decodes them, checks every point is on the curve (untimed) and answers
 * `ready`. Each run() sends `run` and reads back the child's own timing of the MSM (ns: MSM and
 * result to affine only) and the point; `lastRunMs()` hands that time to run-peer.ts instead of the
 * wall time around run() (which adds the pipe round trip). Protocol: bench/native/src/main.rs.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CurveName } from "../inputs.js";
import { PeerUnavailableError, type AffineResult, type PeerInstance, type PeerModule, type ThreadRequest } from "./types.js";

export const NATIVE_DIR = fileURLToPath(new URL("../native/", import.meta.url));

type Flavour = "single" | "threads";
const FEATURES: Record<Flavour, string> = { single: "single", threads: "parallel" };

/** The binary of a flavour, built if needed (cargo decides what is stale). Throws if the build fails. */
export function buildNative(flavour: Flavour): string {
  const probe = spawnSync("cargo", ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new PeerUnavailableError("cargo not found on PATH: native peers need Rust (https://rustup.rs)");
  }
  const args = ["build", "--release", "--features", FEATURES[flavour], "--target-dir", `target/${flavour}`];
  // build output to stderr: stdout carries run-peer's JSON line only
  const build = (extra: string[]) => spawnSync("cargo", [...args, ...extra], { cwd: NATIVE_DIR, stdio: ["ignore", 2, 2] });
  if (build(["--offline"]).status !== 0) {
    process.stderr.write("native: offline build failed, trying online\n");
    const online = build([]);
    if (online.status !== 0) throw new Error(`native: cargo build (${flavour}) failed with status ${online.status}`);
  }
  const bin = `${NATIVE_DIR}target/${flavour}/release/msm-native`;
  if (!existsSync(bin)) throw new Error(`native: ${bin} missing after the build`);
  return bin;
}

/** Lines from a stream, awaited one at a time; after end(error), a wait with no line left rejects. */
class LineReader {
  private buf = "";
  private lines: string[] = [];
  private waiting: { resolve: (s: string) => void; reject: (e: Error) => void } | undefined;
  private ended: Error | undefined;

  constructor(stream: Readable) {
    stream.setEncoding("utf8");
    stream.on("data", (d: string) => {
      this.buf += d;
      let i: number;
      while ((i = this.buf.indexOf("\n")) >= 0) {
        this.lines.push(this.buf.slice(0, i));
        this.buf = this.buf.slice(i + 1);
      }
      this.flush();
    });
  }

  end(error: Error): void {
    this.ended = error;
    this.flush();
  }

  private flush(): void {
    if (this.waiting === undefined) return;
    const w = this.waiting;
    if (this.lines.length > 0) {
      this.waiting = undefined;
      w.resolve(this.lines.shift()!);
    } else if (this.ended !== undefined) {
      this.waiting = undefined;
      w.reject(this.ended);
    }
  }

  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.flush();
    });
  }
}

/** The setup() of a native peer module: `lib` is the program's library argument (blst, arkworks). */
export function nativeSetup(lib: "blst" | "arkworks"): PeerModule["setup"] {
  return (points, scalars, n, curve = "bls12-381", threads = 1) => startNative(lib, points, scalars, n, curve, threads);
}

async function startNative(
  lib: "blst" | "arkworks",
  points: Uint8Array,
  scalars: Uint8Array,
  n: number,
  curve: CurveName,
  threads: ThreadRequest,
): Promise<PeerInstance> {
  if (threads === "auto") throw new PeerUnavailableError(`${lib}-native takes a thread count, not auto`);
  const bin = buildNative(threads === 1 ? "single" : "threads");
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(bin, [lib, curve, String(threads), String(n)], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d: string) => (stderr += d));
  const lines = new LineReader(child.stdout);
  // 'close' comes after stdout and stderr have ended, so the message is whole
  const exited = new Promise<void>((resolve) =>
    child.on("close", (code, signal) => {
      lines.end(new Error(`${lib}-native: the program ended (${code ?? signal}): ${stderr.trim()}`));
      resolve();
    }),
  );
  child.stdin.on("error", () => {}); // an early exit is reported through the line reader
  child.stdin.write(points);
  child.stdin.write(scalars);
  const first = await lines.next();
  if (first.startsWith("unavailable ")) {
    child.stdin.end();
    await exited;
    throw new PeerUnavailableError(`${lib}-native: ${first.slice("unavailable ".length)}`);
  }
  const ready = /^ready (\d+)$/.exec(first);
  if (!ready) throw new Error(`${lib}-native: unexpected answer ${JSON.stringify(first)}`);
  let lastMs = NaN;
  return {
    threads: Number(ready[1]),
    async run(): Promise<AffineResult | null> {
      child.stdin.write("run\n");
      const line = await lines.next();
      const m = /^(\d+) (?:(infinity)|([0-9a-f]+) ([0-9a-f]+))$/.exec(line);
      if (!m) throw new Error(`${lib}-native: unexpected answer ${JSON.stringify(line)}`);
      lastMs = Number(m[1]) / 1e6;
      return m[2] ? null : { x: BigInt("0x" + m[3]), y: BigInt("0x" + m[4]) };
    },
    lastRunMs: () => lastMs,
    async dispose(): Promise<void> {
      child.stdin.end();
      await exited;
    },
  };
}
