/**
 * The G2 peers of bench/g2.ts, each opened once per curve (engine, workers, mcl's curve) and loaded
 * once per size (inputs converted to the library's own form, untimed); run() is the timed MSM and
 * returns the result as g2ResultJson does, for the comparison with the closed form.
 *
 * - `ffjavascript`: ffjavascript 0.3.1 `G2.multiExpAffine`, single-thread engine (`buildBls12381(true)` /
 *   `buildBn128(true)`).
 * - `ffjavascript-workers`: the same call on the default engine (`buildBls12381()` / `buildBn128()`),
 *   one worker per CPU; threads = its worker count.
 * - `noble`: @noble/curves 2.4.0 `pippenger` over `bls12_381.G2.Point` / `bn254.G2.Point` (pure JS).
 *   Scalars are reduced mod r at load (noble refuses scalars ≥ r; the points have order r).
 * - `mcl`: mcl-wasm 2.4.1 `_mclBnG2_mulVec` on `_malloc`ed arrays (as the G1 peer, bench/peers/mcl.ts:
 *   the JS `mulVec` copies its inputs onto a 1 MiB stack), BLS12_381 or BN_SNARK1 (EIP-196's curve),
 *   the curve taken through holdMclCurve so G1 and G2 users in one process cannot clash.
 */
import { buildBls12381, buildBn128, type WasmCurve } from 'ffjavascript';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { bn254 as nobleBn254 } from '@noble/curves/bn254.js';
import { pippenger } from '@noble/curves/abstract/curve.js';
import mcl from 'mcl-wasm';
import { holdMclCurve } from './peers/mcl.js';
import { scalarsToBigints } from './inputs.js';
import type { G2CurveName } from '../src/curves/index.js';

export const G2_PEERS = ['ffjavascript', 'ffjavascript-workers', 'noble', 'mcl'] as const;
export type G2PeerName = (typeof G2_PEERS)[number];

/** An F_p² element as [c0, c1] (value c0 + c1·u). */
export type Fp2Pair = readonly [bigint, bigint];

/** One size's inputs: affine points and 32-byte little-endian scalars (any 256-bit value). */
export interface G2Inputs {
  n: number;
  points: readonly { x: Fp2Pair; y: Fp2Pair }[];
  scalars: Uint8Array;
  /** the group order */
  r: bigint;
}

export interface G2LoadedPeer {
  run(): Promise<string>;
  free?(): void;
}

export interface G2Peer {
  library: string;
  threads: number;
  load(inputs: G2Inputs): G2LoadedPeer;
  close(): Promise<void>;
}

/** The comparison form of a result: JSON of [[x.c0, x.c1], [y.c0, y.c1]] in decimal, or 'null' at infinity. */
export function g2ResultJson(p: { x: readonly bigint[]; y: readonly bigint[] } | null): string {
  return JSON.stringify(p === null ? null : [p.x, p.y].map((c) => c.map(String)));
}

export async function openG2Peer(name: G2PeerName, curve: G2CurveName): Promise<G2Peer> {
  switch (name) {
    case 'ffjavascript':
      return openFfjavascript(curve, true);
    case 'ffjavascript-workers':
      return openFfjavascript(curve, false);
    case 'noble':
      return openNoble(curve);
    case 'mcl':
      return openMcl(curve);
  }
}

async function openFfjavascript(curve: G2CurveName, singleThread: boolean): Promise<G2Peer> {
  const engine: WasmCurve = await (curve === 'bn254' ? buildBn128(singleThread) : buildBls12381(singleThread));
  const G2 = engine.G2;
  const n8 = G2.F.n8; // bytes of an F_p² element
  return {
    library: 'ffjavascript',
    threads: engine.tm.concurrency,
    load({ n, points, scalars }) {
      const bases = new Uint8Array(n * 2 * n8);
      for (let i = 0; i < n; i++) G2.toRprLEM(bases, i * 2 * n8, G2.fromObject([[...points[i].x], [...points[i].y]]));
      return {
        async run() {
          const res = await G2.multiExpAffine(bases, scalars);
          if (G2.isZero(res)) return g2ResultJson(null);
          const [x, y] = G2.toObject(G2.toAffine(res));
          return g2ResultJson({ x: [x[0], x[1]], y: [y[0], y[1]] });
        },
      };
    },
    close: () => engine.terminate(),
  };
}

async function openNoble(curve: G2CurveName): Promise<G2Peer> {
  const Point = curve === 'bn254' ? nobleBn254.G2.Point : nobleBls.G2.Point;
  const Fp2 = Point.Fp;
  return {
    library: 'noble',
    threads: 1,
    load({ n, points, scalars, r }) {
      const fp2 = ([c0, c1]: Fp2Pair) => Fp2.create({ c0, c1 });
      const pts = points.map((p) => Point.fromAffine({ x: fp2(p.x), y: fp2(p.y) }));
      pts[0]?.assertValidity(); // on the curve: the c0/c1 order is right
      const scs = scalarsToBigints(scalars.subarray(0, 32 * n)).map((v) => v % r);
      return {
        async run() {
          const res = pippenger(Point, pts, scs);
          if (res.is0()) return g2ResultJson(null);
          const { x, y } = res.toAffine();
          return g2ResultJson({ x: [x.c0, x.c1], y: [y.c0, y.c1] });
        },
      };
    },
    async close() {},
  };
}

/** Parts of the Emscripten module that mcl-wasm exposes at runtime as `mcl.mod` (untyped). */
interface McLModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  _mclBnG2_mulVec(out: number, g2s: number, frs: number, n: number): void;
}

const MCL_G2_SIZE = 48 * 3 * 2; // MCLBN_G2_SIZE in the 384-bit build: Jacobian x, y, z over F_p²
const MCL_FR_SIZE = 32;

const hex = (v: bigint) => v.toString(16);

/** mcl's string form of an F_p² point (affine, ioMode 16: `1 x.c0 x.c1 y.c0 y.c1`) and back. */
function mclG2Str(p: { x: Fp2Pair; y: Fp2Pair }): string {
  return `1 ${hex(p.x[0])} ${hex(p.x[1])} ${hex(p.y[0])} ${hex(p.y[1])}`;
}

async function openMcl(curve: G2CurveName): Promise<G2Peer> {
  const release = await holdMclCurve(curve);
  const mod = (mcl as unknown as { mod: McLModule }).mod;
  const sizeOf = (v: object) => (v as { a_?: Uint32Array }).a_?.byteLength;
  if (sizeOf(new mcl.G2()) !== MCL_G2_SIZE || sizeOf(new mcl.Fr()) !== MCL_FR_SIZE) {
    release();
    throw new Error('mcl: unexpected G2/Fr size');
  }
  return {
    library: 'mcl',
    threads: 1,
    load({ n, points, scalars }) {
      const g2Ptr = mod._malloc(n * MCL_G2_SIZE);
      const frPtr = mod._malloc(n * MCL_FR_SIZE);
      const outPtr = mod._malloc(MCL_G2_SIZE);
      const free = () => [g2Ptr, frPtr, outPtr].forEach((p) => p && mod._free(p));
      if (!g2Ptr || !frPtr || !outPtr) {
        free();
        throw new Error('mcl: malloc failed');
      }
      const g = new mcl.G2();
      const f = new mcl.Fr();
      for (let i = 0; i < n; i++) {
        const s = mclG2Str(points[i]);
        g.setStr(s, 16);
        // one round trip proves the coordinate order (mcl would take swapped c0/c1 as another point, or refuse it)
        if (i === 0 && (!g.isValid() || g.getStr(16) !== s)) {
          free();
          throw new Error(`mcl: G2 point 0 does not round-trip: ${g.getStr(16)}`);
        }
        g.copyToMem(g2Ptr + i * MCL_G2_SIZE);
        // setLittleEndianMod: setLittleEndian would silently mask the top bit
        f.setLittleEndianMod(scalars.subarray(i * 32, (i + 1) * 32));
        f.copyToMem(frPtr + i * MCL_FR_SIZE);
      }
      const out = new mcl.G2();
      return {
        async run() {
          mod._mclBnG2_mulVec(outPtr, g2Ptr, frPtr, n);
          out.copyFromMem(outPtr);
          if (out.isZero()) return g2ResultJson(null);
          out.normalize();
          const parts = out.getStr(16).split(' ');
          if (parts[0] !== '1' || parts.length !== 5) throw new Error(`mcl: unexpected G2 string ${parts[0]}`);
          const [x0, x1, y0, y1] = parts.slice(1).map((h) => BigInt('0x' + h));
          return g2ResultJson({ x: [x0, x1], y: [y0, y1] });
        },
        free,
      };
    },
    async close() {
      release();
    },
  };
}
