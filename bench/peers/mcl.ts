/**
 * Peer: `mcl-wasm` 2.4.1 on BLS12-381 (`mcl.BLS12_381`) or BN254 (`mcl.BN_SNARK1` — the curve of
 * EIP-196/circom; `mcl.BN254` is a different BN curve), `mclBnG1_mulVec`.
 *
 * mcl's JS `mulVec` copies all inputs onto a 1 MiB Wasm stack (fails beyond ~5.9k points), so the
 * G1/Fr objects are copied once into `_malloc`ed arrays during setup, and run() calls the exported
 * C function `_mclBnG1_mulVec(out, g1s, frs, n)` on them directly. mcl-wasm is one 384-bit build,
 * so the G1/Fr object sizes are the same for both curves (checked at setup).
 *
 * mcl has one global curve per process, and `mcl.init` replaces the whole Wasm module: every setup,
 * here and in the G2 benchmark (bench/g2-peers.ts), takes the curve through holdMclCurve(), which
 * refuses to switch while an instance of the other curve is alive.
 */
import mcl from "mcl-wasm";
import { curveSpec, SCALAR_BYTES, type CurveName } from "../inputs.js";
import type { AffineResult, PeerInstance } from "./types.js";

export const name = "mcl";
export const threads = 1;
export const curves: readonly CurveName[] = ["bls12-381", "bn254"];

/** Parts of the Emscripten module that mcl-wasm exposes at runtime as `mcl.mod` (untyped). */
interface McLModule {
  _malloc(size: number): number;
  _free(ptr: number): void;
  _mclBnG1_mulVec(out: number, g1s: number, frs: number, n: number): void;
}

const G1_SIZE = 48 * 3; // MCLBN_G1_SIZE for the 384-bit build (Jacobian x, y, z)
const FR_SIZE = 32; // MCLBN_FR_SIZE

/** The curve mcl was initialised with in this process, and how many live instances use it. */
let mclCurve: { curve: CurveName; ready: Promise<void> } | undefined;
let mclHolders = 0;

/**
 * Initialises mcl for `curve` unless it already is, and counts the caller as a user of it until it
 * calls the returned release(). Throws if a live user holds the other curve (switching would
 * invalidate that user's Wasm memory).
 */
export async function holdMclCurve(curve: CurveName): Promise<() => void> {
  if (mclCurve?.curve !== curve) {
    if (mclHolders > 0) throw new Error(`mcl: ${mclHolders} live instance(s) use ${mclCurve?.curve}; one process cannot also use ${curve}`);
    mclCurve = { curve, ready: mcl.init(curve === "bn254" ? mcl.BN_SNARK1 : mcl.BLS12_381) };
  }
  mclHolders++;
  try {
    await mclCurve.ready;
  } catch (e) {
    mclHolders--;
    mclCurve = undefined;
    throw e;
  }
  let held = true;
  return () => {
    if (held) mclHolders--;
    held = false;
  };
}

function hex(bytes: Uint8Array, offset: number, len: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + offset, len).toString("hex");
}

export async function setup(
  points: Uint8Array,
  scalars: Uint8Array,
  n: number,
  curve: CurveName = "bls12-381",
): Promise<PeerInstance> {
  const { pointBytes, coordBytes } = curveSpec(curve);
  const release = await holdMclCurve(curve);
  const mod = (mcl as unknown as { mod: McLModule }).mod;
  const g1Ptr = mod._malloc(n * G1_SIZE);
  const frPtr = mod._malloc(n * FR_SIZE);
  const outPtr = mod._malloc(G1_SIZE);
  const free = () => {
    for (const ptr of [g1Ptr, frPtr, outPtr]) if (ptr) mod._free(ptr);
    release();
  };
  try {
    if (!g1Ptr || !frPtr || !outPtr) throw new Error("mcl: malloc failed");
    const g = new mcl.G1();
    const f = new mcl.Fr();
    const sizeOf = (v: object) => (v as { a_?: Uint32Array }).a_?.byteLength;
    if (sizeOf(g) !== G1_SIZE || sizeOf(f) !== FR_SIZE) throw new Error("mcl: unexpected G1/Fr size");
    for (let i = 0; i < n; i++) {
      const o = i * pointBytes;
      g.setStr(`1 ${hex(points, o, coordBytes)} ${hex(points, o + coordBytes, coordBytes)}`, 16);
      g.copyToMem(g1Ptr + i * G1_SIZE);
      // setLittleEndianMod: setLittleEndian would silently mask the top bit
      f.setLittleEndianMod(scalars.subarray(i * SCALAR_BYTES, (i + 1) * SCALAR_BYTES));
      f.copyToMem(frPtr + i * FR_SIZE);
    }
  } catch (e) {
    // a failed setup gives its memory and its hold on the curve back
    free();
    throw e;
  }
  const out = new mcl.G1();

  return {
    async run(): Promise<AffineResult | null> {
      mod._mclBnG1_mulVec(outPtr, g1Ptr, frPtr, n);
      out.copyFromMem(outPtr);
      if (out.isZero()) return null;
      out.normalize();
      const parts = out.getStr(16).split(" ");
      if (parts[0] !== "1" || parts.length !== 3) throw new Error(`mcl: unexpected point string ${parts[0]}`);
      return { x: BigInt("0x" + parts[1]), y: BigInt("0x" + parts[2]) };
    },
    async dispose(): Promise<void> {
      free();
    },
  };
}
