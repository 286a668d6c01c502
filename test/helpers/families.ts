/**
 * The adversarial input families of the MSM tests (test/msm.test.ts, test/prepared.test.ts): points
 * with known logs (or infinity) and scalars that stress buckets, carries, cancellations and the GLV
 * split; each gives the points P, their logs A (the closed-form oracle) and the scalars s.
 */
import type { makeRng } from '../../src/reference/rng.js';
import type { CurveFixture, Pt } from './msm-fixtures.js';

export type Family = (f: CurveFixture, n: number, rng: ReturnType<typeof makeRng>) => { P: Pt[]; A: bigint[]; s: bigint[] };
/** P: the points, A: their logs, s: the scalars (any size and sign). */
export const families: [string, Family][] = [
  ['all-zero scalars', (f, n) => ({ ...base(f, n), s: Array(n).fill(0n) })],
  ['scalars r − 1', (f, n) => ({ ...base(f, n), s: Array(n).fill(f.r - 1n) })],
  ['scalars r (≡ 0) and r + 1 (≡ 1)', (f, n) => ({ ...base(f, n), s: seq(n, (i) => (i % 2 ? f.r : f.r + 1n)) })],
  ['scalars ≥ 2^255 and negative', (f, n) => ({ ...base(f, n), s: seq(n, (i) => (i % 2 ? (1n << 256n) - 1n - BigInt(i) : -BigInt(i + 1))) })],
  ['maximal scalars 2^256 − 1', (f, n) => ({ ...base(f, n), s: Array(n).fill((1n << 256n) - 1n) })],
  ['all-equal scalars', (f, n) => ({ ...base(f, n), s: Array(n).fill(0x1234567890abcdef1234567890abcdefn) })],
  ['all scalars 1 (one bucket)', (f, n) => ({ ...base(f, n), s: Array(n).fill(1n) })],
  ['repeated point', (f, n, rng) => {
    const { pts, logs } = f.withLogs(1);
    return { P: Array(n).fill(pts[0]), A: Array(n).fill(logs[0]), s: f.scalars(rng, n) };
  }],
  ['repeated point, equal scalars', (f, n) => {
    const { pts, logs } = f.withLogs(2);
    return { P: Array(n).fill(pts[1]), A: Array(n).fill(logs[1]), s: Array(n).fill(77n) };
  }],
  ['P and −P with equal scalars (cancels)', (f, n) => {
    const { pts, logs } = f.withLogs(n);
    return {
      P: seq(n, (i) => (i % 2 ? f.ref.neg(pts[i - 1]) : pts[i])),
      A: seq(n, (i) => (i % 2 ? f.mod(-logs[i - 1]) : logs[i])),
      s: seq(n, (i) => BigInt(1000 + (i >> 1))),
    };
  }],
  ['P, P and −P', (f, n) => {
    const { pts, logs } = f.withLogs(1);
    return { P: seq(n, (i) => (i % 3 === 2 ? f.ref.neg(pts[0]) : pts[0])), A: seq(n, (i) => (i % 3 === 2 ? f.mod(-logs[0]) : logs[0])), s: Array(n).fill(5n) };
  }],
  ['P, −P, P, P in groups of four, random scalars', (f, n, rng) => {
    const { pts, logs } = f.withLogs(n);
    return { P: seq(n, (i) => (i % 4 === 1 ? f.ref.neg(pts[i >> 2]) : pts[i >> 2])), A: seq(n, (i) => (i % 4 === 1 ? f.mod(-logs[i >> 2]) : logs[i >> 2])), s: f.scalars(rng, n) };
  }],
  ['infinity inputs mixed in', (f, n, rng) => {
    const { pts, logs } = f.withLogs(n);
    return { P: seq(n, (i) => (i % 5 === 0 ? null : pts[i])), A: seq(n, (i) => (i % 5 === 0 ? 0n : logs[i])), s: f.scalars(rng, n) };
  }],
  ['all infinity', (f, n, rng) => ({ P: Array(n).fill(null), A: Array(n).fill(0n), s: f.scalars(rng, n) })],
  ['arithmetic progression P_i = P_0 + i·Q', (f, n, rng) => {
    const { pts, logs } = f.withLogs(2);
    const P: Pt[] = [pts[0]];
    for (let i = 1; i < n; i++) P.push(f.ref.add(P[i - 1], pts[1]));
    return { P, A: seq(n, (i) => f.mod(logs[0] + BigInt(i) * logs[1])), s: f.scalars(rng, n) };
  }],
  ['arithmetic progression G, 2G, … with scalars n − i (partial sums collide)', (f, n) => {
    const P: Pt[] = [f.G];
    for (let i = 1; i < n; i++) P.push(f.ref.add(P[i - 1], f.G));
    return { P, A: seq(n, (i) => BigInt(i + 1)), s: seq(n, (i) => BigInt(n - i)) };
  }],
  ['small scalars (top windows empty)', (f, n) => ({ ...base(f, n), s: seq(n, (i) => BigInt(i % 7)) })],
  ['GLV edges λ − 1, λ, λ + 1, r − λ − 1, r − λ, r − λ + 1', (f, n) => {
    const { lambda } = f.api.params;
    return { ...base(f, n), s: seq(n, (i) => (i % 6 < 3 ? lambda : f.r - lambda) + BigInt((i % 3) - 1)) };
  }],
];
function base(f: CurveFixture, n: number) {
  const { pts, logs } = f.withLogs(n);
  return { P: pts, A: logs };
}
export function seq<T>(n: number, g: (i: number) => T): T[] {
  return Array.from({ length: n }, (_, i) => g(i));
}

