/**
 * Points with known discrete logs for closed-form MSM checks: P_i = a_i·G built by bigint additions
 * (a few random multiples of G, then each point the sum of the previous one and an earlier one), so
 * Σ s_i·P_i = (Σ s_i·a_i mod r)·G needs one reference scalar multiplication.
 */
import type { RefCurve } from '../../src/reference/curve.js';
import { makeRng } from '../../src/reference/rng.js';

export type Pt = { x: bigint; y: bigint } | null;

export function pointsWithLogs(ref: RefCurve, G: { x: bigint; y: bigint }, r: bigint, n: number, seed: number): { pts: Pt[]; logs: bigint[] } {
  const mod = (x: bigint) => ((x % r) + r) % r;
  const g = makeRng(seed);
  const logs: bigint[] = Array.from({ length: Math.min(n, 6) }, () => (g.nextBigint(256) % (r - 1n)) + 1n);
  const pts: Pt[] = logs.map((a) => ref.mul(G, a));
  while (pts.length < n) {
    const i = pts.length;
    const b = g.nextU32() % (i - 1);
    pts.push(ref.add(pts[i - 1], pts[b]));
    logs.push(mod(logs[i - 1] + logs[b]));
  }
  return { pts, logs };
}
