/**
 * Peer: arkworks 0.5.0 (ark-ec `VariableBaseMSM::msm` on ark-bls12-381 / ark-bn254 G1; the Rust
 * crates, native code). Scalars are handed over as field elements (Montgomery form, converted
 * untimed); msm turns them into integers inside the timing, as its API does. Points are decoded and
 * on-curve-checked untimed (bench/native/src/main.rs).
 *
 * Threads (`threading: 'count'`): 1 = the serial build (row `arkworks-native`); N ≥ 2 = ark-ec's
 * `parallel` MSM in a rayon pool of N threads (row `arkworks-native-<N>t`). Timing is the
 * program's own (no process start, no input parsing): ./native.ts.
 */
import type { CurveName } from "../inputs.js";
import { nativeSetup } from "./native.js";

export const name = "arkworks-native";
export const threads = 1;
export const threading = "count";
export const curves: readonly CurveName[] = ["bls12-381", "bn254"];

export const setup = nativeSetup("arkworks");
