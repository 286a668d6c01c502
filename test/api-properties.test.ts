/**
 * The public group API against a small model of its contract (fast-check), one template over every
 * (curve, group) of the registry (G1 everywhere, G2 where the descriptor has one): for msmSync and
 * msm (async, on a 2-worker pool and with `threads: 1`), random option objects and random input
 * shapes either give exactly the bigint reference's point or throw a typed PippinError naming the
 * bad element; never another error, never a hang; a correct call works afterwards. (The plain
 * reproductions of option bugs — windowBits '8', validate 'toString', … — are in group-api.test.ts.)
 *
 * The contract as modelled: invalid options → InvalidOptionError (before anything else is looked
 * at); packed scalars 32 bytes each, bigint scalars of any size and sign reduced mod r, anything
 * else at index i → ScalarEncodingError(i); points and scalars of different counts →
 * LengthMismatchError; `null`, {infinity: true} are the point at infinity; an `undefined` entry or
 * a hole, a non-object, coordinates not of the group's type (G1 a bigint, G2 a pair of bigints) or
 * out of range → PointEncodingError(i); off-curve
 * → NotOnCurveError(i) unless validate 'none'; outside the subgroup → NotInSubgroupError(i) under
 * validate 'full'. Without pointFormat, packed points use the first format whose size fits the
 * bytes per point (else the curve's first). Unchecked bad points give an unspecified point.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  curves, startThreads, stopThreads, PippinError, InvalidOptionError, PointEncodingError, NotOnCurveError, NotInSubgroupError,
  LengthMismatchError, ScalarEncodingError,
} from '../src/index.js';
import { g2Params } from '../src/curves/index.js';
import { RefCurve } from '../src/reference/curve.js';
import { RefG2 } from '../src/reference/g2.js';
import { makeRng } from '../src/reference/rng.js';
import { pointsWithLogs } from './helpers/known-logs.js';
import { curveGroups, hasG2, type GroupName } from './helpers/registry.js';

const TIMEOUT_MS = 20_000;
const RUNS = Number(process.env.API_PROPERTY_RUNS ?? 300);

/** Fails after TIMEOUT_MS instead of waiting forever. */
async function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout: ${what} did not settle within ${TIMEOUT_MS} ms`)), TIMEOUT_MS);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Input = Uint8Array | readonly unknown[];
/** A result of either group: G1 coordinates are bigints, G2's pairs [c0, c1]. */
interface Result {
  x: unknown;
  y: unknown;
  infinity: boolean;
}
interface Api {
  msm(points: Input, scalars: Input, options?: unknown): Promise<Result>;
  msmSync(points: Input, scalars: Input, options?: unknown): Result;
  toBytes(point: unknown, format?: string): Uint8Array;
  readonly pointFormats: readonly { name: string; bytes: number }[];
}
interface CurveLike {
  name: string;
  params: ConstructorParameters<typeof RefCurve>[0];
  init(): Promise<void>;
  g1: Api;
  g2: Api;
}
/** A finite point of either group (G1: bigints; G2: [c0, c1] pairs); null is infinity. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AffinePoint = { x: any; y: any };
type Affine = AffinePoint | null;
/** The bigint reference of either group (RefCurve, RefG2). */
interface Ref {
  readonly G: AffinePoint;
  mul(P: Affine, k: bigint): Affine;
  add(P: Affine, Q: Affine): Affine;
  neg(P: Affine): Affine;
  eq(P: Affine, Q: Affine): boolean;
  isOnCurve(P: Affine): boolean;
  isInSubgroup(P: Affine): boolean;
  msmNaive(points: readonly Affine[], scalars: readonly bigint[]): Affine;
}
/** How a group's coordinates look in point objects and results. */
interface Coords {
  /** a coordinate of the right type (G1: a bigint; G2: an array of two bigints) */
  is(v: unknown): boolean;
  /** every component in [0, p) */
  inRange(v: unknown, p: bigint): boolean;
  zero: unknown;
  isZero(v: unknown): boolean;
  /** the coordinate with its first component replaced */
  withFirst(v: unknown, c: bigint): unknown;
  first(v: unknown): bigint;
  /** a coordinate made of numbers instead of bigints */
  numbers: unknown;
}
const COORDS: Record<GroupName, Coords> = {
  g1: {
    is: (v) => typeof v === 'bigint',
    inRange: (v, p) => (v as bigint) >= 0n && (v as bigint) < p,
    zero: 0n,
    isZero: (v) => v === 0n,
    withFirst: (_, c) => c,
    first: (v) => v as bigint,
    numbers: 1,
  },
  g2: {
    is: (v) => Array.isArray(v) && v.length === 2 && v.every((c) => typeof c === 'bigint'),
    inRange: (v, p) => (v as bigint[]).every((c) => c >= 0n && c < p),
    zero: [0n, 0n],
    isZero: (v) => (v as bigint[]).every((c) => c === 0n),
    withFirst: (v, c) => [c, (v as bigint[])[1]],
    first: (v) => (v as bigint[])[0],
    numbers: [1, 2],
  },
};
const allGroups = curveGroups.map(({ name, group }) => ({ key: `${name}.${group}`, name, group, curve: curves[name] as unknown as CurveLike }));

// ---------------------------------------------------------------------------------------------
// Fixtures: a few points with known logs per curve, their encodings, and bad points.

interface FormatFix {
  name: string;
  bytes: number;
  compressed: boolean;
  /** used when pointFormat is omitted: the first format of its size */
  isDefault: boolean;
  pool: Uint8Array[];
  inf: Uint8Array;
  ff: Uint8Array;
  /** an uncompressed encoding of (x, y ^ 1), off the curve */
  off?: Uint8Array;
  nonSub?: Uint8Array;
}
interface Fixture {
  /** curve.group */
  name: string;
  api: Api;
  coords: Coords;
  ref: Ref;
  r: bigint;
  p: bigint;
  G: AffinePoint;
  pool: AffinePoint[];
  logs: bigint[];
  off: AffinePoint;
  /** on the curve, outside the order-r subgroup (curves with a cofactor) */
  nonSub?: AffinePoint;
  formats: FormatFix[];
  /** the reference's verdict on a point in range, memoized (subgroup checks are slow in bigints) */
  status(P: AffinePoint): 'ok' | 'off' | 'nonSub';
  /** a valid call and its result, to check the API still works after an error */
  healthy: { small: Call; large: Call };
}
interface Call {
  points: Input;
  scalars: Input;
  options?: unknown;
  want: Affine;
}

function fieldBytes(p: bigint): number {
  return Math.ceil(p.toString(2).length / 8);
}

/**
 * Index of the lowest byte of y's first component in an uncompressed encoding: G1 BE x‖y (zcash,
 * eip196), LE x‖y[‖flags] (arkworks, pasta); G2 BE x1‖x0‖y1‖y0 (zcash, eip197), LE x0‖x1‖y0‖y1 (arkworks).
 */
function yLowByte(group: GroupName, format: string, bytes: number, L: number): number {
  if (format === 'zcash' || format === 'eip196' || format === 'eip197') return bytes - 1;
  if (format === 'arkworks' || format === 'pasta') return group === 'g1' ? L : 2 * L;
  throw new Error(`no layout known for ${format}`);
}

function makeFixture(name: string, group: GroupName, curve: CurveLike): Fixture {
  const g1 = curve[group];
  const coords = COORDS[group];
  const { r, p, h1 } = curve.params;
  let ref: Ref;
  let pool: AffinePoint[];
  let logs: bigint[];
  let nonSub: AffinePoint | undefined;
  if (group === 'g1') {
    const ref1 = new RefCurve(curve.params);
    ref = ref1 as Ref;
    const known = pointsWithLogs(ref1, ref1.G, r, 6, 11);
    pool = known.pts as AffinePoint[];
    logs = known.logs;
    if (h1 > 1n) {
      for (let x = 1n; !nonSub; x++) {
        const y = ref1.Fp.sqrt(x * x * x + ref1.a * x + ref1.b);
        if (y !== undefined && !ref1.isInSubgroup({ x, y })) nonSub = { x, y };
      }
    }
  } else {
    if (!hasG2(curve.name as never)) throw new Error(`${curve.name} has no G2`);
    const ref2 = new RefG2(g2Params[curve.name as keyof typeof g2Params]);
    ref = ref2 as unknown as Ref;
    const rng = makeRng(11);
    logs = Array.from({ length: 6 }, () => rng.nextBigint(256) % r);
    pool = logs.map((a) => ref2.mul(ref2.G, a)!);
    nonSub = ref2.pointFromX0(1n); // h2 > 1: a point of the twist outside G2
  }
  const G = ref.G;
  // P and −P: sums that cancel
  pool.push(ref.neg(pool[0]) as AffinePoint);
  logs.push(r - logs[0]);
  const flip = (P: AffinePoint) => ({ x: P.x, y: coords.withFirst(P.y, coords.first(P.y) ^ 1n) });
  const offBase = pool.find((P) => (coords.first(P.y) ^ 1n) < p && !ref.isOnCurve(flip(P)))!;
  const off = flip(offBase);
  const L = fieldBytes(p);
  const seen = new Set<number>();
  const formats = g1.pointFormats.map(({ name: f, bytes }): FormatFix => {
    const compressed = f.includes('compressed');
    const isDefault = !seen.has(bytes);
    seen.add(bytes);
    let offBytes: Uint8Array | undefined;
    if (!compressed) {
      offBytes = g1.toBytes(offBase, f);
      offBytes[yLowByte(group, f, bytes, L)] ^= 1;
    }
    return {
      name: f,
      bytes,
      compressed,
      isDefault,
      pool: pool.map((P) => g1.toBytes(P, f)),
      inf: g1.toBytes(null, f),
      ff: new Uint8Array(bytes).fill(0xff),
      off: offBytes,
      nonSub: nonSub && g1.toBytes(nonSub, f),
    };
  });
  const memo = new Map<string, 'ok' | 'off' | 'nonSub'>();
  const status = (P: AffinePoint) => {
    const key = `${String(P.x)};${String(P.y)}`;
    let s = memo.get(key);
    if (!s) memo.set(key, (s = !ref.isOnCurve(P) ? 'off' : ref.isInSubgroup(P) ? 'ok' : 'nonSub'));
    return s;
  };
  const fix: Fixture = { name: `${name}.${group}`, api: g1, coords, ref, r, p, G, pool, logs, off, nonSub, formats, status, healthy: undefined as never };
  const small = [pool[1], null, pool[2]];
  const smallS = [3n, 5n, -7n];
  const f0 = formats[0];
  const largeIdx = Array.from({ length: 260 }, (_, i) => (i * 5) % pool.length);
  const largeS = largeIdx.map((_, i) => BigInt(i) * 0x1234567n + 1n);
  const large = concat(largeIdx.map((j) => f0.pool[j]));
  fix.healthy = {
    small: { points: small, scalars: smallS, want: ref.msmNaive(small, smallS) },
    large: { points: large, scalars: largeS, options: { pointFormat: f0.name }, want: expectedFromLogs(fix, largeIdx.map((j) => logs[j]), largeS) },
  };
  return fix;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, b) => a + b.length, 0));
  let at = 0;
  for (const b of parts) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** Σ s_i·(a_i·G) = (Σ s_i·a_i mod r)·G; a null log is the point at infinity. */
function expectedFromLogs(fix: Fixture, logs: (bigint | null)[], scalars: bigint[]): Affine {
  const mod = (x: bigint) => ((x % fix.r) + fix.r) % fix.r;
  let acc = 0n;
  logs.forEach((a, i) => {
    if (a !== null) acc = mod(acc + a * mod(scalars[i]));
  });
  return fix.ref.mul(fix.G, acc);
}

// ---------------------------------------------------------------------------------------------
// Random cases: a description drawn by fast-check, built into a call plus the model's expectation.

const OBJ_OK = ['pool', 'pool', 'pool', 'null', 'infObj', 'infAffine', 'finiteFlag'] as const;
const OBJ_BAD = ['numbers', 'xIsP', 'negY', 'offcurve', 'nonSub', 'string', 'emptyObj', 'infFalseOnly'] as const;
const OBJ_HOLES = ['undefined', 'hole'] as const;
const BYTES_OK = ['pool', 'pool', 'pool', 'inf'] as const;
const BYTES_BAD = ['ff', 'offcurve', 'nonSub'] as const;
type PointKind = (typeof OBJ_OK)[number] | (typeof OBJ_BAD)[number] | (typeof OBJ_HOLES)[number] | (typeof BYTES_OK)[number] | (typeof BYTES_BAD)[number];
/** a bigint, or a name of one relative to r */
type ScalarKind = { t: 'big'; v: bigint | string } | { t: 'bad'; v: 'number' | 'string' | 'undefined' | 'null' | 'hole' | 'object' };
type PackedKind = 'ff' | 'zero' | 'one';

const PROTO_KEYS = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
const ACTUAL_FORMAT = '@actual';
const OTHER_FORMAT = '@other';
const STATS_FN = '@onStats';

const optionEntry = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constant('pointFormat'), fc.oneof({ weight: 4, arbitrary: fc.constantFrom<unknown>(ACTUAL_FORMAT, ACTUAL_FORMAT, OTHER_FORMAT) }, fc.constantFrom<unknown>('ZCASH', 'eip', 5, null, undefined, ...PROTO_KEYS))) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('scalarEndian'), fc.oneof({ weight: 4, arbitrary: fc.constantFrom<unknown>('le', 'be') }, fc.constantFrom<unknown>('BE', 'big', 'LE', 0, undefined, ...PROTO_KEYS))) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('validate'), fc.oneof({ weight: 4, arbitrary: fc.constantFrom<unknown>('full', 'on-curve', 'none') }, fc.constantFrom<unknown>('FULL', true, null, 2, undefined, ...PROTO_KEYS))) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('windowBits'), fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 16 }) }, fc.constantFrom<unknown>('8', 2.5, -1, -8, 0, 1, 17, 40, NaN, 8n, undefined, 'toString'))) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('threads'), fc.oneof({ weight: 4, arbitrary: fc.constantFrom<unknown>(1, 1, 2, 2, 3, 256) }, fc.constantFrom<unknown>(0, -1, 1.5, '2', 257, undefined, 'valueOf'))) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('onStats'), fc.oneof({ weight: 4, arbitrary: fc.constant<unknown>(STATS_FN) }, fc.constantFrom<unknown>('f', 1, {}, undefined))) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...PROTO_KEYS, 'foo', 'windowbits', 'validation'), fc.constantFrom<unknown>(1, 'none', undefined, {})) },
);
const optionsDesc = fc.record({
  root: fc.oneof(
    { weight: 10, arbitrary: fc.constant('object' as const) },
    { weight: 2, arbitrary: fc.constant('undefined' as const) },
    { weight: 1, arbitrary: fc.constant('proto' as const) },
    { weight: 1, arbitrary: fc.constant('bad' as const) },
  ),
  bad: fc.constantFrom<unknown>(null, 0, 'full', true, [], [['validate', 'none']]),
  entries: fc.array(optionEntry, { maxLength: 3 }),
});

const scalarOverride = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.oneof(
      fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }),
      fc.bigInt({ min: -1000n, max: 1000n }),
      fc.constantFrom(0n, 1n, -1n, (1n << 256n) - 1n, 1n << 256n, -(1n << 256n)),
      fc.constantFrom('r-1', 'r', 'r+1', '-r', '2r+5'),
    ).map((v): ScalarKind => ({ t: 'big', v })),
  },
  { weight: 1, arbitrary: fc.constantFrom('number', 'string', 'undefined', 'null', 'hole', 'object').map((v) => ({ t: 'bad', v }) as ScalarKind) },
);

function caseDesc(pointKinds: fc.Arbitrary<PointKind>, byteKinds: fc.Arbitrary<PointKind>, objectsOnly = false) {
  return fc.record({
    n: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 0, max: 6 }) }, { weight: 1, arbitrary: fc.integer({ min: 256, max: 290 }) }),
    seed: fc.nat(),
    pointsAs: objectsOnly ? fc.constant('objects' as const) : fc.constantFrom('objects' as const, 'bytes' as const),
    format: fc.nat(),
    pointOverrides: fc.array(fc.tuple(fc.nat(), pointKinds), { maxLength: 3 }),
    byteOverrides: fc.array(fc.tuple(fc.nat(), byteKinds), { maxLength: 3 }),
    /** extra or missing points (whole points), or for bytes stray bytes */
    pointsDelta: fc.oneof({ weight: 10, arbitrary: fc.constant(0) }, fc.constantFrom<number>(-1, 1, 2)),
    strayBytes: fc.oneof({ weight: 10, arbitrary: fc.constant(0) }, fc.integer({ min: -5, max: 5 })),
    scalarsAs: fc.constantFrom('bigints' as const, 'packed' as const),
    scalarOverrides: fc.array(fc.tuple(fc.nat(), scalarOverride), { maxLength: 3 }),
    packedOverrides: fc.array(fc.tuple(fc.nat(), fc.constantFrom<PackedKind>('ff', 'zero', 'one')), { maxLength: 2 }),
    packedStray: fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 31 })),
    options: optionsDesc,
  });
}
type CaseDesc = ReturnType<typeof caseDesc> extends fc.Arbitrary<infer T> ? T : never;

/** What the model allows: must-throw defects, may-throw errors, and whether the value is determined. */
type ErrorClass = abstract new (...args: never[]) => PippinError;
interface Allowed {
  cls: ErrorClass;
  /** undefined: any index */
  index?: number;
  options?: string[];
  why: string;
}
interface Expectation {
  defects: Allowed[];
  maybes: Allowed[];
  /** the result is not determined (unchecked bad points, or bytes read in another format) */
  unspecified: boolean;
  want?: Affine;
}

/** Independent of src/api/options.ts: which values each option accepts (a Map: no prototype names). */
const OPTION_OK = new Map<string, (v: unknown, formats: readonly string[]) => boolean>(Object.entries({
  pointFormat: (v, formats) => typeof v === 'string' && formats.indexOf(v) >= 0,
  scalarEndian: (v) => v === 'le' || v === 'be',
  validate: (v) => v === 'full' || v === 'on-curve' || v === 'none',
  windowBits: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 2 && v <= 16,
  threads: (v) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 256,
  onStats: (v) => typeof v === 'function',
} satisfies Record<string, (v: unknown, formats: readonly string[]) => boolean>));

interface Built {
  call: { points: Input; scalars: Input; options: unknown };
  expect: Expectation;
  stats: { calls: number };
  summary: string;
}

function mod(x: bigint, r: bigint): bigint {
  return ((x % r) + r) % r;
}

function build(fix: Fixture, d: CaseDesc): Built {
  const rng = makeRng(d.seed);
  const { r, p, coords: C } = fix;
  const n = d.n;
  const fmt = fix.formats[d.format % fix.formats.length];
  const otherFmt = fix.formats[(d.format + 1) % fix.formats.length];
  const defects: Allowed[] = [];
  const maybes: Allowed[] = [];
  let unspecified = false;
  const stats = { calls: 0 };

  // options
  let options: unknown;
  const own = new Map<string, unknown>();
  if (d.options.root === 'undefined') options = undefined;
  else if (d.options.root === 'bad') options = d.options.bad;
  else {
    const o: Record<string, unknown> = d.options.root === 'proto' ? Object.create({ validate: 'toString', windowBits: '8', threads: 0, foo: 1, scalarEndian: 'be' }) : {};
    for (const [k, v0] of d.options.entries) {
      const v = v0 === ACTUAL_FORMAT ? fmt.name : v0 === OTHER_FORMAT ? otherFmt.name : v0 === STATS_FN ? () => void stats.calls++ : v0;
      Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      own.set(k, v);
    }
    options = o;
  }
  const names = fix.formats.map((f) => f.name);
  let optionsOk = true;
  const badKeys: string[] = [];
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    optionsOk = false;
    badKeys.push('options');
  } else {
    for (const [k, v] of own) {
      if (v === undefined) continue;
      const check = OPTION_OK.get(k);
      if (!check || !check(v, names)) {
        optionsOk = false;
        badKeys.push(k);
      }
    }
  }
  const opt = (k: string) => (optionsOk ? own.get(k) : undefined);
  const validate = (opt('validate') as string | undefined) ?? 'full';
  const endian = (opt('scalarEndian') as string | undefined) ?? 'le';
  const givenFormat = opt('pointFormat') as string | undefined;

  // scalars
  const scalarValues: bigint[] = [];
  let scalars: Input;
  let scalarCount: number;
  if (d.scalarsAs === 'bigints') {
    const arr: unknown[] = Array.from({ length: n }, () => rng.nextBigint(rng.nextU32() % 2 ? 256 : 64));
    for (const [at, k] of n ? d.scalarOverrides : []) {
      const i = at % n;
      if (k.t === 'big') {
        const v = k.v;
        arr[i] = typeof v === 'bigint' ? v : ({ 'r-1': r - 1n, r, 'r+1': r + 1n, '-r': -r, '2r+5': 2n * r + 5n } as Record<string, bigint>)[v];
      } else arr[i] = { number: 5, string: '5', undefined: undefined, null: null, hole: 'hole', object: { v: 5n } }[k.v];
    }
    for (let i = 0; i < n; i++) {
      if (arr[i] === 'hole') delete arr[i];
      if (typeof arr[i] === 'bigint') scalarValues.push(arr[i] as bigint);
      else {
        scalarValues.push(0n);
        defects.push({ cls: ScalarEncodingError, index: i, why: `scalar ${i} is ${i in arr ? String(arr[i]) : 'a hole'}` });
      }
    }
    scalars = arr;
    scalarCount = n;
  } else {
    const bytes = new Uint8Array(32 * n + d.packedStray);
    for (let i = 0; i < bytes.length; i++) bytes[i] = rng.nextU32() & 0xff;
    for (const [at, k] of n ? d.packedOverrides : []) {
      const i = at % n;
      bytes.fill(k === 'ff' ? 0xff : 0, 32 * i, 32 * i + 32);
      if (k === 'one') bytes[endian === 'be' ? 32 * i + 31 : 32 * i] = 1;
    }
    for (let i = 0; i < n; i++) {
      let v = 0n;
      for (let b = 0; b < 32; b++) v = (v << 8n) | BigInt(bytes[32 * i + (endian === 'be' ? b : 31 - b)]);
      scalarValues.push(v);
    }
    if (d.packedStray) defects.push({ cls: LengthMismatchError, index: -1, why: `${bytes.length} scalar bytes` });
    scalars = bytes;
    scalarCount = n;
  }

  // points: base pool points, then overrides
  const count = Math.max(0, n + d.pointsDelta);
  const idx = Array.from({ length: count }, () => rng.nextU32() % fix.pool.length);
  const logs: (bigint | null)[] = idx.map((j) => fix.logs[j]);
  let points: Input;
  const badPoint = (i: number, cls: ErrorClass, why: string) => defects.push({ cls, index: i, why: `point ${i}: ${why}` });
  /** a bad point the chosen validation does not look for: the result is not determined */
  const unchecked = (i: number) => {
    unspecified = true;
    logs[i] = null;
  };
  if (d.pointsAs === 'objects') {
    const arr: unknown[] = idx.map((j) => fix.pool[j]);
    for (const [at, kind] of count ? d.pointOverrides : []) {
      const i = at % count;
      const P = fix.pool[idx[i]];
      logs[i] = fix.logs[idx[i]];
      switch (kind) {
        case 'pool':
          arr[i] = P;
          break;
        case 'null':
        case 'infObj':
        case 'infAffine':
          arr[i] = kind === 'null' ? null : kind === 'infObj' ? { infinity: true } : { x: C.zero, y: C.zero, infinity: true };
          logs[i] = null;
          break;
        case 'finiteFlag':
          arr[i] = { x: P.x, y: P.y, infinity: false };
          break;
        case 'numbers':
          arr[i] = { x: C.numbers, y: C.numbers };
          break;
        case 'xIsP':
          arr[i] = { x: C.withFirst(P.x, p), y: P.y };
          break;
        case 'negY':
          arr[i] = { x: P.x, y: C.withFirst(P.y, -C.first(P.y)) };
          break;
        case 'string':
          arr[i] = 'P';
          break;
        case 'emptyObj':
          arr[i] = {};
          break;
        case 'infFalseOnly':
          arr[i] = { infinity: false };
          break;
        case 'offcurve':
          arr[i] = fix.off;
          break;
        case 'nonSub':
          arr[i] = fix.nonSub ?? P;
          break;
        case 'undefined':
          arr[i] = undefined;
          break;
        case 'hole':
          arr[i] = undefined;
          delete arr[i];
          break;
      }
    }
    for (let i = 0; i < count; i++) {
      const v = arr[i];
      if (!(i in arr)) badPoint(i, PointEncodingError, 'a hole');
      else if (v === undefined) badPoint(i, PointEncodingError, 'undefined');
      else if (v === null || (v as { infinity?: unknown }).infinity === true) continue;
      else if (typeof v !== 'object') badPoint(i, PointEncodingError, `not an object: ${String(v)}`);
      else {
        const { x, y } = v as { x: unknown; y: unknown };
        if (!C.is(x) || !C.is(y)) badPoint(i, PointEncodingError, 'coordinates not of the group’s type');
        else if (!C.inRange(x, p) || !C.inRange(y, p)) badPoint(i, PointEncodingError, 'coordinate out of range');
        else if (fix.status({ x, y }) === 'off') {
          if (validate === 'none') unchecked(i);
          else badPoint(i, NotOnCurveError, 'off the curve');
        } else if (fix.status({ x, y }) === 'nonSub') {
          if (validate === 'full') badPoint(i, NotInSubgroupError, 'outside the subgroup');
          else unchecked(i);
        }
      }
    }
    if (count !== scalarCount) defects.push({ cls: LengthMismatchError, index: -1, why: `${count} points, ${scalarCount} scalars` });
    points = arr;
  } else {
    const parts = idx.map((j) => fmt.pool[j]);
    const kinds: PointKind[] = idx.map(() => 'pool');
    for (const [at, kind0] of count ? d.byteOverrides : []) {
      const i = at % count;
      const kind = (kind0 === 'offcurve' && !fmt.off) || (kind0 === 'nonSub' && !fmt.nonSub) ? 'ff' : kind0;
      kinds[i] = kind;
      parts[i] = kind === 'pool' ? fmt.pool[idx[i]] : kind === 'inf' ? fmt.inf : kind === 'ff' ? fmt.ff : kind === 'offcurve' ? fmt.off! : fmt.nonSub!;
    }
    let bytes = concat(parts);
    if (d.strayBytes > 0) bytes = concat([bytes, new Uint8Array(d.strayBytes).fill(7)]);
    else if (d.strayBytes < 0) bytes = bytes.subarray(0, Math.max(0, bytes.length + d.strayBytes));
    // the format the call decodes with: the given one, else the first of this size, else the curve's first
    const bpp = scalarCount > 0 ? bytes.length / scalarCount : Infinity;
    const used = givenFormat !== undefined ? fix.formats.find((f) => f.name === givenFormat)! : (fix.formats.find((f) => f.bytes === bpp) ?? fix.formats[0]);
    const lengthOk = bytes.length === used.bytes * scalarCount;
    if (!lengthOk) defects.push({ cls: LengthMismatchError, index: -1, why: `${bytes.length} point bytes for ${scalarCount} × ${used.bytes} (${used.name})` });
    if (used !== fmt || d.strayBytes !== 0 || count !== scalarCount) {
      // read in another format or misaligned: any point error, any value
      if (lengthOk && scalarCount > 0) {
        unspecified = true;
        for (const cls of [PointEncodingError, NotOnCurveError, NotInSubgroupError]) maybes.push({ cls, why: `bytes read as ${used.name}` });
      }
    } else {
      for (let i = 0; i < count; i++) {
        const kind = kinds[i];
        if (kind === 'inf') logs[i] = null;
        else if (kind === 'ff') badPoint(i, PointEncodingError, 'all 0xff');
        else if (kind === 'offcurve') {
          if (validate === 'none') unchecked(i);
          else badPoint(i, NotOnCurveError, 'off the curve');
        } else if (kind === 'nonSub') {
          if (validate === 'full') badPoint(i, NotInSubgroupError, 'outside the subgroup');
          else unchecked(i);
        }
      }
    }
    points = bytes;
  }

  const summary =
    `n=${n} points=${d.pointsAs}${d.pointsAs === 'bytes' ? `(${fmt.name})` : ''} count=${count} scalars=${d.scalarsAs} ` +
    `options=${d.options.root}:${JSON.stringify(Object.fromEntries([...own].map(([k, v]) => [k, typeof v === 'function' ? 'ƒ' : typeof v === 'bigint' ? `${v}n` : v === undefined ? 'undefined' : v])))}`;
  if (!optionsOk) {
    // options are checked before anything else
    return { call: { points, scalars, options }, expect: { defects: [{ cls: InvalidOptionError, index: -1, options: badKeys, why: `options ${badKeys.join(', ')}` }], maybes: [], unspecified: false }, stats, summary };
  }
  const expect: Expectation = { defects, maybes, unspecified };
  if (!defects.length && !unspecified) expect.want = expectedFromLogs(fix, logs, scalarValues.map((s) => mod(s, r)));
  return { call: { points, scalars, options }, expect, stats, summary };
}

function show(a: Affine): string {
  return a === null ? 'infinity' : `(${String(a.x).slice(0, 14)}…, ${String(a.y).slice(0, 14)}…)`;
}

/** Checks an outcome against the model; returns whether the call threw. */
function judge(fix: Fixture, b: Built, outcome: { value?: Result; error?: unknown }): boolean {
  const { expect } = b;
  const ctx = `${fix.name} ${b.summary}`;
  if ('error' in outcome) {
    const e = outcome.error;
    assert.ok(e instanceof PippinError, `${ctx}: threw a non-PippinError ${String((e as Error)?.stack ?? e)}`);
    const all = [...expect.defects, ...expect.maybes];
    const fits = all.some((a) => e instanceof a.cls && (a.index === undefined || e.index === a.index) && (!a.options || (e instanceof InvalidOptionError && a.options.includes(e.option))));
    assert.ok(fits, `${ctx}: threw ${e.name}(index ${e.index}) "${e.message}", allowed: ${all.map((a) => `${a.cls.name}(${a.index ?? 'any'}; ${a.why})`).join(' | ') || 'nothing'}`);
    assert.ok(b.stats.calls <= 1, `${ctx}: onStats called ${b.stats.calls} times`);
    return true;
  }
  const got = outcome.value!;
  assert.ok(!expect.defects.length, `${ctx}: returned ${JSON.stringify(got, (_, v) => (typeof v === 'bigint' ? v.toString(16) : v))} but expected one of ${expect.defects.map((a) => `${a.cls.name}(${a.index}; ${a.why})`).join(' | ')}`);
  assert.equal(typeof got.infinity, 'boolean', `${ctx}: result shape`);
  assert.ok(fix.coords.is(got.x) && fix.coords.is(got.y), `${ctx}: result shape`);
  if (!expect.unspecified) {
    const pt: Affine = got.infinity ? null : { x: got.x, y: got.y };
    assert.ok(fix.ref.eq(pt, expect.want!), `${ctx}: got ${show(pt)}, want ${show(expect.want!)}`);
    if (got.infinity) assert.ok(fix.coords.isZero(got.x) && fix.coords.isZero(got.y), `${ctx}: infinity as (0, 0)`);
    if (typeof (b.call.options as { onStats?: unknown } | undefined)?.onStats === 'function') assert.equal(b.stats.calls, 1, `${ctx}: onStats once`);
  }
  return false;
}

async function runCall(g1: Api, mode: 'sync' | 'async', c: { points: Input; scalars: Input; options?: unknown }, what: string): Promise<{ value?: Result; error?: unknown }> {
  try {
    return { value: mode === 'sync' ? g1.msmSync(c.points, c.scalars, c.options) : await within(g1.msm(c.points, c.scalars, c.options), what) };
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('timeout:')) throw error;
    return { error };
  }
}

async function stillWorks(fix: Fixture, mode: 'sync' | 'async', large: boolean): Promise<void> {
  const h = large ? fix.healthy.large : fix.healthy.small;
  const out = await runCall(fix.api, mode, h, `${fix.name} health check`);
  assert.ok(!('error' in out), `${fix.name}: a correct call after an error threw ${String(out.error)}`);
  const got = out.value!;
  assert.ok(fix.ref.eq(got.infinity ? null : { x: got.x, y: got.y }, h.want), `${fix.name}: a correct call after an error gave a wrong point`);
}

function property(fix: Fixture, mode: 'sync' | 'async', desc: fc.Arbitrary<CaseDesc>, numRuns: number, seed?: number) {
  return fc.assert(
    fc.asyncProperty(desc, async (d) => {
      const b = build(fix, d);
      const out = await runCall(fix.api, mode, b.call, `${fix.name} ${mode} ${b.summary}`);
      const threw = judge(fix, b, out);
      if (threw) await stillWorks(fix, mode, d.n >= 256);
    }),
    { numRuns, seed, includeErrorInReport: true },
  );
}

const objKinds = fc.oneof({ weight: 3, arbitrary: fc.constantFrom<PointKind>(...OBJ_OK) }, { weight: 1, arbitrary: fc.constantFrom<PointKind>(...OBJ_BAD) });
const byteKinds = fc.oneof({ weight: 3, arbitrary: fc.constantFrom<PointKind>(...BYTES_OK) }, { weight: 1, arbitrary: fc.constantFrom<PointKind>(...BYTES_BAD) });
const mainCases = caseDesc(objKinds, byteKinds);
/** Cases with at least one `undefined` entry or hole among the points. */
const holeCases = caseDesc(objKinds, byteKinds, true)
  .chain((d) => fc.tuple(fc.constant(d), fc.nat(), fc.constantFrom<PointKind>(...OBJ_HOLES)))
  .map(([d, at, kind]) => ({ ...d, n: Math.max(d.n, 1), pointsDelta: 0, pointOverrides: [...d.pointOverrides, [at, kind]] as [number, PointKind][] }));

// ---------------------------------------------------------------------------------------------

const fixtures = new Map<string, Fixture>();

before(async () => {
  const state = await startThreads(2);
  assert.equal(state.count, 2, 'a 2-worker pool');
  for (const { key, name, group, curve } of allGroups) {
    await curve.init();
    fixtures.set(key, makeFixture(name, group, curve));
  }
});
after(() => stopThreads());

describe('the model itself', () => {
  it('fixture points: pool points on the curve with their logs, off-curve and non-subgroup points as described', () => {
    for (const fix of fixtures.values()) {
      fix.pool.forEach((P, j) => assert.ok(fix.ref.eq(P, fix.ref.mul(fix.G, fix.logs[j])), `${fix.name} pool ${j}`));
      assert.ok(!fix.ref.isOnCurve(fix.off));
      if (fix.nonSub) assert.ok(fix.ref.isOnCurve(fix.nonSub) && !fix.ref.isInSubgroup(fix.nonSub));
      assert.ok(fix.ref.eq(fix.healthy.small.want, fix.ref.add(fix.ref.mul(fix.pool[1], 3n), fix.ref.mul(fix.pool[2], fix.r - 7n))));
    }
  });
});

for (const { key: name } of allGroups) {
  describe(`${name}: API contract (property)`, () => {
    for (const mode of ['sync', 'async'] as const) {
      const entry = mode === 'sync' ? 'msmSync' : 'msm';
      it(`${entry}: the reference point or a typed error naming the bad element`, async () => {
        await property(fixtures.get(name)!, mode, mainCases, RUNS);
      });
      it(`${entry}: points with an undefined entry or a hole raise PointEncodingError naming it`, async () => {
        await property(fixtures.get(name)!, mode, holeCases, Math.ceil(RUNS / 4));
      });
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Plain reproductions.

// The plain reproductions of option bugs (windowBits '8', validate 'toString', scalarEndian 'BE', toBytes
// formats, undefined entries and holes) run for both groups in test/group-api.test.ts.
