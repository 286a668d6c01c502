/**
 * Feature probe for the Wasm wide-arithmetic proposal: a hand-encoded module of four functions
 * using i64.mul_wide_u (0xFC 22), i64.add128 (0xFC 19), i64.sub128 (0xFC 20) and i64.mul_wide_s
 * (0xFC 21) on their params — every wide opcode the 64-bit-limb modules contain — given to
 * `WebAssembly.validate` (no compilation, no instance). 81 bytes. As measured (docs/backends.md,
 * "Engines"): true in Bun 1.4 (JavaScriptCore, by default), Chromium 156 with
 * `--js-flags=--wasm-wide-arithmetic`, Deno 2.9 with `--v8-flags=--experimental-wasm-wide-arithmetic`,
 * Firefox ESR 153 with the pref `javascript.options.wasm_wide_arithmetic` (off in a stock ESR 153);
 * false in Node 20–24 (no such V8 flag), WebKitGTK 2.50 and all of these without their switch.
 * Validation only says the opcodes are accepted: `init()` also runs ./wide-selftest.ts before it
 * takes the wide64 module.
 */
const PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  // types: (i64 i64) → (i64 i64); (i64 i64 i64 i64) → (i64 i64)
  0x01, 0x11, 0x02, 0x60, 0x02, 0x7e, 0x7e, 0x02, 0x7e, 0x7e, 0x60, 0x04, 0x7e, 0x7e, 0x7e, 0x7e, 0x02, 0x7e, 0x7e,
  // functions: types 0, 1, 1, 0
  0x03, 0x05, 0x04, 0x00, 0x01, 0x01, 0x00,
  // code: mul_wide_u(a, b); add128(a, b, c, d); sub128(a, b, c, d); mul_wide_s(a, b)
  0x0a, 0x2d, 0x04,
  0x08, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfc, 0x16, 0x0b,
  0x0c, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0x20, 0x03, 0xfc, 0x13, 0x0b,
  0x0c, 0x00, 0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0x20, 0x03, 0xfc, 0x14, 0x0b,
  0x08, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfc, 0x15, 0x0b,
]);

let cached: boolean | undefined;

/** Whether this engine validates the wide-arithmetic instructions (cached after the first call). */
export function wideArithmeticSupported(): boolean {
  if (cached === undefined) {
    try {
      cached = typeof WebAssembly === 'object' && WebAssembly.validate(PROBE);
    } catch {
      cached = false;
    }
  }
  return cached;
}

/** The probe's bytes (tests check them against an assembled module). */
export const WIDE_PROBE_BYTES: Uint8Array = PROBE;
