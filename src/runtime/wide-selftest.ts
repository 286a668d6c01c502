/**
 * Known-answer self-test of a wide64 module on this engine, run before `init()` takes the module:
 * the wide-arithmetic proposal is new in every engine (JavaScriptCore runs it by default since Bun
 * 1.4; V8 and SpiderMonkey behind flags), and `WebAssembly.validate` (./wide-probe.ts) only says
 * that the opcodes are accepted, not that they compute right. A wrong carry in one of them would
 * make every MSM wrong without an error, so the module is checked on what its opcodes do:
 *
 * 1. Montgomery product, square, sum and difference of base-field elements at the carry edges (raw
 *    limbs 0, 1, p − 1, 2p − 1, all-ones limbs, 2^64k ± 1, R mod p, …: long carry chains through
 *    `i64.mul_wide_u` / `i64.add128` / `i64.sub128`), each against BigInt arithmetic mod p;
 * 2. the inverse (divsteps on `i64.mul_wide_s`), checked as x·x⁻¹ ≡ 1, and 0 → 0;
 * 3. a 16-point MSM on G1: the points (i + 1)·G built with the module's kernels, checked on the curve
 *    with BigInt, then Σ s_i·P_i by double-and-add on the XYZZ kernels and, when `options.msm` is
 *    given, by the MSM pipeline itself (accumulation, batched affine additions, reduction), both
 *    against a constant computed at build time from the bigint reference (KNOWN_MSM below;
 *    test/wide-selftest.test.ts recomputes it).
 *
 * Cost: one compile of the module, ≈ 500 field kernel calls with BigInt checks, ≈ 40 inverses and
 * ≈ 2 300 curve kernel calls: 10–30 ms per curve in Bun 1.4.5 and Deno 2.9.6 on a loaded 2-core
 * Xeon, most of it in the engines' first (interpreter / baseline) tiers. It checks those tiers; a
 * bug only in an engine's optimizing tier would need hot code to show, which the cross-engine suite
 * (test/engines/checks.ts: MSMs up to 2^10 against their closed form) runs in CI, not `init()`.
 * No BigInt work beyond products mod p (no inversion, no scalar multiplication).
 */
import { instantiateGenerated, type Instance, type WideModule } from './instance.js';

/** Σ s_i·(i + 1)·G over the scalars of `selfTestScalars`, per curve, affine (src/reference/curve.ts). */
export const KNOWN_MSM: Readonly<Record<string, { x: bigint; y: bigint }>> = Object.freeze({
  'bls12-381': { x: 0xeec288f5a07d1af365664fed92579d1064a3649084e89a00fd587d1bfb282e55144b6b3bcdc49e8a2a0a1ef71206ea2n, y: 0x8cda03d9197029df8eda27a57ed0baf7dcad10e42cf881d344f57e22c8a61c773ff9ed16bac276fac8482059133cc59n },
  'bn254': { x: 0x135f06eb81a7eae7d48296b70623abd456b4d5f324fa254f733c8987b3df35acn, y: 0x29a2116c6b788c7fcebe5b8b384dfecb39958b2fa2d0f711a7fa8956d10e365n },
  'bls12-377': { x: 0xda933c5031ee2dd037a077542bd5603cb9196d52062a14a2c989d1f8f10ea665427e3d51b14625f76e23a4c77de811n, y: 0x1698af509d0a31b5a56c00d5396978cca2543834cea5abedf1a0048c85f5c141f95349960719e25aacbf98f98ebf2b0n },
  'pallas': { x: 0x1840e9d878d94108dfbccc4ee175f8e8aa02cb4307315ef53797281525a675dcn, y: 0x262e5240e684a7edb74b32b904df7b6330007dcc46d8f4b35e0278f8a0923598n },
  'vesta': { x: 0xcd9ea24eeb19f6e9196929337912b379fbcac3c985e5431989002f75ff50ec2n, y: 0x331902112b395d920ab57c34b3200aa2141a9c878d3438457a081f7496ab909cn },
});

/** The 16 scalars of the MSM: r − 1, 0, 1, then K·(i² + 1) mod r (K = ⌊2^256/φ⌋-like odd constant). */
export function selfTestScalars(r: bigint): bigint[] {
  const K = 0x9e3779b97f4a7c15f39cc0605cedc8341082276bf3a27251f86c6a11d0c18e95n;
  return Array.from({ length: 16 }, (_, i) => (i === 0 ? r - 1n : i === 1 ? 0n : i === 2 ? 1n : (K * BigInt(i * i + 1)) % r));
}

/** What the self-test needs of the curve (its `CurveParams`). */
export interface SelfTestCurve {
  name: string;
  p: bigint;
  r: bigint;
  a: bigint;
  b: bigint;
  G1: { x: bigint; y: bigint };
}

export interface SelfTestOptions {
  /**
   * The MSM pipeline on the wide64 instance (e.g. `(pts, s) => g1.msm(pts, s, { threads: 1 })` of a
   * G1 built on `inst`); run on the 16 points and scalars, compared with KNOWN_MSM.
   */
  msm?: (inst: Instance, points: { x: bigint; y: bigint }[], scalars: bigint[]) => Promise<{ x: bigint; y: bigint; infinity: boolean }>;
  /** An instance of `mod` to test instead of a fresh one (plain memory). */
  instance?: Instance;
}

const hex = (v: bigint) => `0x${v.toString(16)}`;

/** Raw limb values (Montgomery form, any value < 2p) whose products and sums run the longest carries. */
function edgeValues(p: bigint, n: number): bigint[] {
  const R = 1n << BigInt(64 * n);
  const ones = (1n << 64n) - 1n;
  const vals = [0n, 1n, 2n, p - 1n, p, p + 1n, 2n * p - 1n, 2n * p - 2n, R % p, (R * R) % p, p >> 1n, (p + 1n) >> 1n];
  for (let k = 1; k < n; k++) vals.push((1n << BigInt(64 * k)) - 1n, 1n << BigInt(64 * k), (1n << BigInt(64 * k)) + 1n, p - (1n << BigInt(64 * k)));
  for (let k = 0; k < n; k++) vals.push(ones << BigInt(64 * k), (2n * p - 1n) | ((1n << BigInt(64 * k)) - 1n));
  return [...new Set(vals.filter((v) => v >= 0n && v < 2n * p))];
}

/**
 * Runs the known-answer tests of `mod` (a curve's wide64 module) on this engine. Resolves to
 * undefined when every answer is right, else to the first wrong one, e.g. "fp_mul(0x…, 0x…) =
 * 0x…, expected ≡ 0x… (mod p)"; never rejects (a module that does not compile or traps is a reason
 * too).
 */
export async function selfTestWide64(mod: WideModule, curve: SelfTestCurve, options: SelfTestOptions = {}): Promise<string | undefined> {
  try {
    return await run(mod, curve, options);
  } catch (e) {
    return `wide64 self-test: ${e instanceof Error ? e.message : String(e)}`;
  }
}

async function run(mod: WideModule, curve: SelfTestCurve, options: SelfTestOptions): Promise<string | undefined> {
  const known = KNOWN_MSM[curve.name];
  if (!known) return `wide64 self-test: no known answers for curve ${curve.name}`;
  const inst = options.instance ?? (await instantiateGenerated(mod, { shared: false }));
  const fp = inst.fields.fp;
  const { p } = curve;
  if (fp.info.p !== p || fp.info.w !== 64) return `wide64 self-test: module field (w = ${fp.info.w}, p = ${hex(fp.info.p)}) is not the 64-bit-limb field of ${curve.name}`;
  const n = fp.info.n;
  const R = 1n << BigInt(64 * n);
  const mark = inst.arena.mark();
  try {
    const [x, y, z] = [fp.alloc(), fp.alloc(), fp.alloc()];
    const mul = fp.op('mul'), sqr = fp.op('sqr'), add = fp.op('add'), sub = fp.op('sub'), inv = fp.op('inv');
    const vals = edgeValues(p, n);
    const where = `${curve.name} wide64 self-test`;
    // 1. products, squares, sums, differences on raw limbs: out·R ≡ a·b, out ≡ a ± b (mod p), out < 2p
    for (let i = 0; i < vals.length; i++) {
      // each value with itself, its neighbour and its mirror in the list: ≈ 3·40 pairs
      for (const j of new Set([i, (i + 1) % vals.length, vals.length - 1 - i])) {
        const [a, b] = [vals[i], vals[j]];
        fp.writeLimbs(x, a);
        fp.writeLimbs(y, b);
        const checks: [string, () => void, bigint, (o: bigint) => bigint][] = [
          ['fp_mul', () => mul(z, x, y), (a * b) % p, (o) => (o * R) % p],
          ['fp_sqr', () => sqr(z, x), (a * a) % p, (o) => (o * R) % p],
          ['fp_add', () => add(z, x, y), (a + b) % p, (o) => o % p],
          ['fp_sub', () => sub(z, x, y), (((a - b) % p) + p) % p, (o) => o % p],
        ];
        for (const [name, f, want, norm] of checks) {
          f();
          const out = fp.readLimbs(z);
          if (out >= 2n * p || norm(out) !== want) return `${where}: ${name}(${hex(a)}, ${hex(b)}) = ${hex(out)}, expected ≡ ${hex(name === 'fp_mul' || name === 'fp_sqr' ? (want * modInverseOfR(p, R)) % p : want)} (mod p) in [0, 2p)`;
        }
      }
    }
    // 2. the inverse: x·x⁻¹ ≡ 1 in Montgomery form, i.e. out·a ≡ R² (mod p); 0 → 0
    const R2 = (R * R) % p;
    for (const a of vals) {
      fp.writeLimbs(x, a);
      inv(z, x);
      const out = fp.readLimbs(z);
      const ok = a % p === 0n ? out % p === 0n : (out * a) % p === R2;
      if (!ok || out >= 2n * p) return `${where}: fp_inv(${hex(a)}) = ${hex(out)}, not its inverse`;
    }
    // 3. the MSM on G1
    const scratchBytes = Math.max(...Object.values(mod.scratchBytes as Record<string, number>));
    return await msmCheck(inst, curve, known, where, scratchBytes, options);
  } finally {
    inst.arena.release(mark);
  }
}

/** R⁻¹ mod p for the error message only (Fermat; never on the success path). */
function modInverseOfR(p: bigint, R: bigint): bigint {
  let [base, e, acc] = [R % p, p - 2n, 1n];
  for (; e > 0n; e >>= 1n, base = (base * base) % p) if (e & 1n) acc = (acc * base) % p;
  return acc;
}

async function msmCheck(inst: Instance, curve: SelfTestCurve, known: { x: bigint; y: bigint }, where: string, scratchBytes: number, options: SelfTestOptions): Promise<string | undefined> {
  const fp = inst.fields.fp;
  const k = inst.k;
  const EB = fp.info.elementBytes;
  const { p } = curve;
  const scratch = inst.arena.alloc(scratchBytes);
  const G = inst.arena.alloc(2 * EB);
  const acc = inst.arena.alloc(4 * EB);
  const aff = inst.arena.alloc(2 * EB);
  fp.write(G, curve.G1.x);
  fp.write(G + EB, curve.G1.y);
  const onCurve = (P: { x: bigint; y: bigint }) => (P.y * P.y - (P.x * P.x * P.x + curve.a * P.x + curve.b)) % p === 0n;
  // the points (i + 1)·G, by the XYZZ small-scalar multiplication and the affine conversion
  const pts: { x: bigint; y: bigint }[] = [];
  const ptrs: number[] = [];
  for (let i = 0; i < 16; i++) {
    k.g1_xyzz_from_affine(acc, G);
    k.g1_xyzz_mul_small(acc, i + 1, scratch);
    if (k.g1_xyzz_to_affine(aff, acc, scratch) !== 0) return `${where}: ${i + 1}·G is the point at infinity`;
    const P = { x: fp.read(aff), y: fp.read(aff + EB) };
    if (!onCurve(P)) return `${where}: ${i + 1}·G = (${hex(P.x)}, ${hex(P.y)}) is not on the curve`;
    const ptr = inst.arena.alloc(4 * EB);
    fp.write(ptr, P.x);
    fp.write(ptr + EB, P.y);
    k.g1_xyzz_from_affine(ptr, ptr);
    pts.push(P);
    ptrs.push(ptr);
  }
  if (pts[0].x !== curve.G1.x || pts[0].y !== curve.G1.y) return `${where}: 1·G ≠ G`;
  const scalars = selfTestScalars(curve.r);
  // double-and-add, all 16 points at once, from the top bit (Horner); the full XYZZ addition, since
  // a partial sum may equal the next point (1·G + 2·G = 3·G: the doubling case)
  const bits = curve.r.toString(2).length;
  k.g1_xyzz_set_inf(acc);
  for (let bit = bits - 1; bit >= 0; bit--) {
    k.g1_xyzz_double(acc, scratch);
    for (let i = 0; i < 16; i++) if ((scalars[i] >> BigInt(bit)) & 1n) k.g1_xyzz_add(acc, ptrs[i], scratch);
  }
  const check = (what: string, got: { x: bigint; y: bigint; infinity: boolean }) =>
    got.infinity || got.x !== known.x || got.y !== known.y
      ? `${where}: ${what} Σ s_i·(i + 1)·G = ${got.infinity ? 'infinity' : `(${hex(got.x)}, ${hex(got.y)})`}, expected (${hex(known.x)}, ${hex(known.y)})`
      : undefined;
  const inf = k.g1_xyzz_to_affine(aff, acc, scratch) !== 0;
  const bad = check('XYZZ double-and-add', { x: inf ? 0n : fp.read(aff), y: inf ? 0n : fp.read(aff + EB), infinity: inf });
  if (bad || !options.msm) return bad;
  return check('MSM', await options.msm(inst, pts, scalars));
}
