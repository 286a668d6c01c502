/**
 * The Wasm wide-arithmetic proposal's instructions (i64.mul_wide_u 0xFC 22, i64.mul_wide_s 0xFC 21,
 * i64.add128 0xFC 19, i64.sub128 0xFC 20) for the 64-bit-limb field generator (./field64.ts).
 *
 * wabt (our assembler, ./assemble.ts) has no feature flag for these opcodes: it can neither parse
 * nor validate them. So the generated text calls four small helper functions instead
 * (`$wide64_mul_u`, `$wide64_add128`, `$wide64_sub128`, `$wide64_mul_s`, multi-value results
 * (lo, hi)) whose bodies
 * compute the same results from plain i64 instructions (the *polyfill*: runs on any engine, used by
 * the Node tests to check the 64-bit-limb algorithms against the bigint reference). The *native*
 * binary is the same binary with every `call` of a helper replaced in place by its opcode:
 * `call idx` is 0x10 + one LEB byte when idx < 128, exactly as long as 0xFC + LEB(19..22), so no
 * offset moves. The helpers are declared first (indices 0..3), and `patchWideCalls` walks every
 * function body instruction by instruction (an unknown opcode is an error, never a guess), so an
 * immediate that happens to hold 0x10 is never mistaken for a call. The helpers stay in the native
 * binary as dead code (≈ 100 bytes).
 */
import { Expr, FuncBuilder, I64, Local, ModuleBuilder, i64 } from './wat.js';

/** Opcodes after the 0xFC prefix (wide-arithmetic proposal, phase 4). */
export const WIDE_OPCODES = { add128: 19, sub128: 20, mul_wide_s: 21, mul_wide_u: 22 } as const;

/** Helper name per opcode, in declaration order (function indices 0..3 of a module). */
export const WIDE_HELPERS = { mul_wide_u: 'wide64_mul_u', add128: 'wide64_add128', sub128: 'wide64_sub128', mul_wide_s: 'wide64_mul_s' } as const;

/** A two-valued expression (lo, hi): a helper call, consumed by another helper or by `setPair`. */
export class Pair {
  constructor(readonly text: string) {}
}

const call = (fn: string, ...args: (I64 | Pair)[]) => new Pair(`(call $${fn} ${args.map((a) => a.text).join(' ')})`);

/** (lo, hi) of the 128-bit product a·b, unsigned. */
export const mulWide = (a: I64, b: I64): Pair => call(WIDE_HELPERS.mul_wide_u, a, b);
/** (lo, hi) of the 128-bit product a·b of two signed (two's complement) i64. */
export const mulWideS = (a: I64, b: I64): Pair => call(WIDE_HELPERS.mul_wide_s, a, b);
/**
 * (lo, hi) of the 128-bit sum (aLo, aHi) + (bLo, bHi) mod 2^128; `a` may be a Pair, and `b` a Pair
 * (then `bHi` is not given).
 */
export function add128(a: Pair | [I64, I64], bLo: I64 | Pair, bHi: I64 = i64.const(0)): Pair {
  const b = bLo instanceof Pair ? [bLo] : [bLo, bHi];
  return a instanceof Pair ? call(WIDE_HELPERS.add128, a, ...b) : call(WIDE_HELPERS.add128, a[0], a[1], ...b);
}
/** (lo, hi) of the 128-bit difference (aLo, aHi) − (bLo, bHi) mod 2^128. */
export function sub128(a: Pair | [I64, I64], bLo: I64, bHi: I64 = i64.const(0)): Pair {
  return a instanceof Pair ? call(WIDE_HELPERS.sub128, a, bLo, bHi) : call(WIDE_HELPERS.sub128, a[0], a[1], bLo, bHi);
}
/** Evaluates a pair into two locals (the stack holds lo below hi). */
export function setPair(fb: FuncBuilder, p: Pair, lo: Local<'i64'>, hi: Local<'i64'>): void {
  fb.line(p.text);
  fb.line(`(local.set $${hi.name})`);
  fb.line(`(local.set $${lo.name})`);
}

/**
 * Declares the four helpers; must run before any other function of the module (indices 0..3,
 * checked by the patcher's caller through `wideHelperIndices`). Idempotent per module.
 */
export function emitWideHelpers(mb: ModuleBuilder): void {
  if (mb.hasFunc(WIDE_HELPERS.mul_wide_u)) return;
  const pair = ['i64', 'i64'] as const;
  const M32 = i64.const(0xffffffffn);
  mb.func(WIDE_HELPERS.mul_wide_u, { a: 'i64', b: 'i64' }, undefined, [
    `(lo, hi) = a·b as 128 bits, unsigned: i64.mul_wide_u (0xFC 22) in the native binary, which replaces every call.`,
    `Polyfill: schoolbook on 32-bit halves, 4 i64.mul; mid = p00>>32 + lo32(p01) + lo32(p10) < 3·2^32.`,
  ], (fb) => {
    const a = fb.param('a', 'i64');
    const b = fb.param('b', 'i64');
    const [a0, a1, b0, b1] = [fb.local('a0', 'i64'), fb.local('a1', 'i64'), fb.local('b0', 'i64'), fb.local('b1', 'i64')];
    const [p00, p01, p10, mid] = [fb.local('p00', 'i64'), fb.local('p01', 'i64'), fb.local('p10', 'i64'), fb.local('mid', 'i64')];
    a0.set(i64.and(a.get, M32));
    a1.set(i64.shr_u(a.get, 32));
    b0.set(i64.and(b.get, M32));
    b1.set(i64.shr_u(b.get, 32));
    p00.set(i64.mul(a0.get, b0.get));
    p01.set(i64.mul(a0.get, b1.get));
    p10.set(i64.mul(a1.get, b0.get));
    mid.set(i64.add(i64.add(i64.shr_u(p00.get, 32), i64.and(p01.get, M32)), i64.and(p10.get, M32)));
    fb.line(i64.or(i64.and(p00.get, M32), i64.shl(mid.get, 32)).text);
    fb.line(i64.add(i64.add(i64.mul(a1.get, b1.get), i64.add(i64.shr_u(p01.get, 32), i64.shr_u(p10.get, 32))), i64.shr_u(mid.get, 32)).text);
  }, { export: false, results: pair });
  const params = { aLo: 'i64', aHi: 'i64', bLo: 'i64', bHi: 'i64' } as const;
  mb.func(WIDE_HELPERS.add128, params, undefined, [
    `(lo, hi) = (aLo, aHi) + (bLo, bHi) mod 2^128: i64.add128 (0xFC 19) natively. Polyfill: carry = lo <u aLo.`,
  ], (fb) => {
    const lo = fb.local('lo', 'i64');
    lo.set(i64.add(fb.param('aLo', 'i64').get, fb.param('bLo', 'i64').get));
    fb.line(lo.get.text);
    fb.line(i64.add(i64.add(fb.param('aHi', 'i64').get, fb.param('bHi', 'i64').get), i64.extend_i32_u(i64.lt_u(lo.get, fb.param('aLo', 'i64').get))).text);
  }, { export: false, results: pair });
  mb.func(WIDE_HELPERS.sub128, params, undefined, [
    `(lo, hi) = (aLo, aHi) − (bLo, bHi) mod 2^128: i64.sub128 (0xFC 20) natively. Polyfill: borrow = aLo <u bLo.`,
  ], (fb) => {
    const aLo = fb.param('aLo', 'i64');
    const bLo = fb.param('bLo', 'i64');
    fb.line(i64.sub(aLo.get, bLo.get).text);
    fb.line(i64.sub(i64.sub(fb.param('aHi', 'i64').get, fb.param('bHi', 'i64').get), i64.extend_i32_u(i64.lt_u(aLo.get, bLo.get))).text);
  }, { export: false, results: pair });
  mb.func(WIDE_HELPERS.mul_wide_s, { a: 'i64', b: 'i64' }, undefined, [
    `(lo, hi) = a·b as 128 bits, signed: i64.mul_wide_s (0xFC 21) natively. Polyfill: the unsigned product,`,
    `then hi −= (a < 0 ? b : 0) + (b < 0 ? a : 0) (a negative a read unsigned is a + 2^64).`,
  ], (fb) => {
    const a = fb.param('a', 'i64');
    const b = fb.param('b', 'i64');
    const [lo, hi] = [fb.local('lo', 'i64'), fb.local('hi', 'i64')];
    setPair(fb, mulWide(a.get, b.get), lo, hi);
    fb.line(lo.get.text);
    fb.line(i64.sub(i64.sub(hi.get, i64.and(i64.shr_s(a.get, 63), b.get)), i64.and(i64.shr_s(b.get, 63), a.get)).text);
  }, { export: false, results: pair });
}

/** Function index → wide opcode, for the helpers of a module (throws unless they are calls of 2 bytes). */
export function wideHelperIndices(mb: ModuleBuilder): Map<number, number> {
  const m = new Map<number, number>();
  for (const [op, name] of Object.entries(WIDE_HELPERS) as [keyof typeof WIDE_HELPERS, string][]) {
    const idx = mb.funcIndex(name);
    if (idx >= 128) throw new Error(`${name} has function index ${idx}: the in-place patch needs < 128`);
    m.set(idx, WIDE_OPCODES[op]);
  }
  return m;
}

// ------------------------------------------------------------------ binary patch

class Reader {
  constructor(readonly b: Uint8Array, public pos = 0) {}
  u8(): number {
    if (this.pos >= this.b.length) throw new Error('wide patch: unexpected end of module');
    return this.b[this.pos++];
  }
  /** unsigned or signed LEB128: both are skipped the same way; the unsigned value is returned */
  leb(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.u8();
      if (shift < 28) result |= (byte & 0x7f) << shift;
      shift += 7;
      if ((byte & 0x80) === 0) return result >>> 0;
    }
  }
}

/** Skips one instruction's immediates after its opcode (the subset wabt emits for our modules). */
function skipImmediates(r: Reader, op: number): void {
  if (op === 0x02 || op === 0x03 || op === 0x04) {
    const bt = r.b[r.pos];
    if (bt === 0x40 || (bt >= 0x7b && bt <= 0x7f) || bt === 0x70 || bt === 0x6f) r.pos++;
    else r.leb(); // s33 type index (multi-value block)
  } else if (op === 0x0c || op === 0x0d || op === 0x10 || (op >= 0x20 && op <= 0x26) || op === 0xd2) r.leb();
  else if (op === 0x0e) {
    const count = r.leb();
    for (let k = 0; k <= count; k++) r.leb();
  } else if (op === 0x11) {
    r.leb();
    r.leb();
  } else if (op === 0x1c) {
    const count = r.leb();
    r.pos += count;
  } else if (op >= 0x28 && op <= 0x3e) {
    r.leb(); // align
    r.leb(); // offset
  } else if (op === 0x3f || op === 0x40 || op === 0xd0) r.pos++;
  else if (op === 0x41 || op === 0x42) r.leb();
  else if (op === 0x43) r.pos += 4;
  else if (op === 0x44) r.pos += 8;
  else if (op === 0xfc) {
    const sub = r.leb();
    if (sub <= 7 || (sub >= 19 && sub <= 22)) return;
    if (sub === 8) { r.leb(); r.pos++; }
    else if (sub === 9 || sub === 11 || sub === 13 || sub === 15 || sub === 16 || sub === 17) r.leb();
    else if (sub === 10 || sub === 12 || sub === 14) { r.leb(); r.leb(); }
    else throw new Error(`wide patch: unknown 0xFC ${sub}`);
  } else if (op === 0xfe) {
    const sub = r.leb();
    if (sub === 0x03) r.pos++; // atomic.fence
    else { r.leb(); r.leb(); } // memarg
  } else if (op === 0x00 || op === 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b || (op >= 0x45 && op <= 0xc4) || op === 0xd1) return;
  else throw new Error(`wide patch: unknown opcode 0x${op.toString(16)} at byte ${r.pos - 1}`);
}

/**
 * Returns a copy of the module with every `call` of a helper replaced by its wide opcode, and the
 * number of sites replaced. `helpers`: function index → opcode (from `wideHelperIndices`).
 */
export function patchWideCalls(wasm: Uint8Array, helpers: Map<number, number>): { wasm: Uint8Array<ArrayBuffer>; sites: number } {
  const out = new Uint8Array(wasm.length);
  out.set(wasm);
  const r = new Reader(out, 8);
  let sites = 0;
  while (r.pos < out.length) {
    const id = r.u8();
    const size = r.leb();
    const end = r.pos + size;
    if (id === 10) {
      const bodies = r.leb();
      for (let f = 0; f < bodies; f++) {
        const bodySize = r.leb();
        const bodyEnd = r.pos + bodySize;
        const groups = r.leb();
        for (let g = 0; g < groups; g++) {
          r.leb();
          r.pos++; // valtype
        }
        while (r.pos < bodyEnd) {
          const at = r.pos;
          const op = r.u8();
          if (op === 0x10) {
            const idx = r.leb();
            const wide = helpers.get(idx);
            if (wide !== undefined) {
              if (r.pos - at !== 2) throw new Error('wide patch: helper call is not 2 bytes');
              out[at] = 0xfc;
              out[at + 1] = wide;
              sites++;
            }
          } else skipImmediates(r, op);
        }
        if (r.pos !== bodyEnd) throw new Error('wide patch: function body overrun');
      }
    }
    r.pos = end;
  }
  return { wasm: out, sites };
}
