/**
 * Peer: blst 0.3.17 (supranational; the Rust crate, native code, not Wasm), BLS12-381 G1 through
 * its Pippenger MSM `<[blst_p1_affine] as MultiPoint>::mult` (what `p1_affines::mult` calls), which
 * does not validate the points; bench/native/src/main.rs decodes and on-curve-checks them untimed.
 *
 * Threads (`threading: 'count'`): 1 = the build with blst's `no-threads` feature (row
 * `blst-native`); N ≥ 2 = blst's thread pool limited to N CPUs (row `blst-native-<N>t`). Timing is
 * the program's own (no process start, no input parsing): ./native.ts.
 */
import type { CurveName } from "../inputs.js";
import { nativeSetup } from "./native.js";

export const name = "blst-native";
export const threads = 1;
export const threading = "count";
export const curves: readonly CurveName[] = ["bls12-381"];

export const setup = nativeSetup("blst");
