/**
 * The point codecs of CurveGen (./curve.ts): `<g>_decode_batch` and `<g>_encode` for the
 * encodings of the curve's ecosystem (ZCash/IETF, arkworks, EIP-196, Pasta; `curveFormats`), with
 * the optional on-curve and subgroup checks of decoding. Coordinates are big- or little-endian
 * integers of B = ⌈bits(p)/8⌉ bytes (arkworks' flag-carrying one BA = ⌈(bits(p) + 2)/8⌉); decoding
 * is strict: only what encode produces is accepted.
 */
import { Check, POINT_FORMAT_NAMES, PointError, STATUS_SHIFT, PointFormat, type PointFormatName, type PointFormatSpec } from '../abi/codes.js';
import type { CurveParams } from '../curves/types.js';
import { bitLength } from './field-layout.js';
import { FuncBuilder, I32, I64, Local, i32, i64 } from './wat.js';
import { subgroupCostEstimate } from './curve-subgroup.js';
import type { CurveGen } from './curve.js';

/** Encodings of curves that list none (generic test curves): arkworks' generic ones. */
const DEFAULT_FORMATS: readonly PointFormatName[] = ['arkworks', 'arkworks-compressed'];

/** One point encoding of a curve: its name, kernel format code and encoded size in bytes. */
export type CurveFormat = PointFormatSpec<PointFormatName>;

/**
 * The point encodings a curve's G1 kernels implement (`names`, from the curve's descriptor; the
 * first is its primary one), with their kernel codes and sizes. Throws if the ZCash flags (3 bits)
 * do not fit above the coordinate.
 */
export function curveFormats(params: CurveParams, names: readonly PointFormatName[] = DEFAULT_FORMATS): CurveFormat[] {
  const bits = bitLength(params.p);
  const L = Math.ceil(bits / 8);
  const La = Math.ceil((bits + 2) / 8);
  const list = names;
  if (list.length === 0 || new Set(list).size !== list.length) throw new Error(`curveFormats(${params.name}): empty or repeated format list`);
  return list.map((name) => {
    if (!POINT_FORMAT_NAMES.includes(name)) throw new Error(`curveFormats(${params.name}): unknown format ${String(name)}`);
    if ((name === 'zcash' || name === 'zcash-compressed') && 8 * L - bits < 3) {
      throw new Error(`curveFormats(${params.name}): no room for 3 flag bits (ZCash format)`);
    }
    const bytes = {
      zcash: 2 * L,
      'zcash-compressed': L,
      arkworks: L + La,
      'arkworks-compressed': La,
      eip196: 2 * L,
      pasta: 2 * L,
    }[name];
    return { name, code: PointFormat[name], bytes };
  });
}

/** The codecs, in module order: decode_batch, encode. */
export function emitCodecs(cg: CurveGen): void {
  emitDecode(cg);
  emitEncode(cg);
}

/** One line per format for the codec headers: the exact byte layout and flag rules. */
function formatDocs(cg: CurveGen): string[] {
  const { B, BA } = cg;
  const extra = BA > B;
  const doc: Record<PointFormatName, string> = {
    zcash: `ZCash/IETF uncompressed: x ‖ y big-endian (${B} B each); byte 0 bits 7, 6, 5 = compressed (0), infinity, sort (0); infinity = 0x40 then zeros`,
    'zcash-compressed': `ZCash/IETF compressed: x big-endian; byte 0 bit 7 = compressed (1), bit 6 = infinity, bit 5 = y is the larger root; infinity = 0xc0 then zeros`,
    arkworks: extra
      ? `arkworks uncompressed: x LE (${B} B) ‖ y LE (${B} B) ‖ flag byte: bit 7 = y > (p − 1)/2, bit 6 = infinity (x = y = 0), bits 5..0 zero`
      : `arkworks uncompressed: x LE ‖ y LE (${B} B each); last byte bit 7 = y > (p − 1)/2, bit 6 = infinity (x = y = 0)`,
    'arkworks-compressed': extra
      ? `arkworks compressed: x LE (${B} B) ‖ flag byte: bit 7 = y > (p − 1)/2, bit 6 = infinity (x = 0), bits 5..0 zero`
      : `arkworks compressed: x LE (${B} B); last byte bit 7 = y > (p − 1)/2, bit 6 = infinity (x = 0)`,
    eip196: `EIP-196/197: x ‖ y big-endian (${B} B each), no flags; infinity = all zero (an x or y ≥ p is malformed)`,
    pasta: `Pasta (o1js layout): x ‖ y little-endian (${B} B each), no flags; infinity = all zero ((0, 0) is not on the curve)`,
  };
  return cg.formats.map((f) => `  ${f.code} ${f.name} (${f.bytes} B): ${doc[f.name]}`);
}


/** Traps unless `format` is one of this curve's codes. */
function trapUnlessFormat(cg: CurveGen, fb: FuncBuilder, format: Local<'i32'>): void {
  const codes = cg.formats.map((f) => f.code).sort((a, b) => a - b);
  if (codes.every((c, j) => c === j)) {
    fb.if(i32.gt_u(format.get, i32.const(codes.length - 1)), () => fb.line('(unreachable)'));
  } else {
    const known = codes.map((c) => i32.eq(format.get, i32.const(c))).reduce((a, b) => i32.or(a, b));
    fb.if(i32.eqz(known), () => fb.line('(unreachable)'));
  }
}

/** i32 expression: 1 if the bytes [base, base + len) are all zero after clearing `clearMask`
 * bits of byte `flagByte` (relative to base). */
function zeroBytes(base: I32, len: number, flagByte: number, clearMask: number): I32 {
  const terms: I64[] = [];
  let k = 0;
  for (; k + 8 <= len; k += 8) {
    let e = i64.load(base, k);
    if (flagByte >= k && flagByte < k + 8) {
      const keep = ((1n << 64n) - 1n) ^ (BigInt(clearMask) << BigInt(8 * (flagByte - k)));
      e = i64.and(e, i64.const(keep));
    }
    terms.push(e);
  }
  for (; k < len; k++) {
    let e = i32.load8_u(base, k);
    if (k === flagByte) e = i32.and(e, i32.const(0xff ^ clearMask));
    terms.push(i64.extend_i32_u(e));
  }
  return i64.eqz(terms.reduce((a, b) => i64.or(a, b)));
}
function copyBytes(fb: FuncBuilder, dst: I32, src: I32, len: number): void {
  let k = 0;
  for (; k + 8 <= len; k += 8) fb.i64Store(dst, k, i64.load(src, k));
  for (; k < len; k++) fb.i32Store8(dst, k, i32.load8_u(src, k));
}
function zeroFill(fb: FuncBuilder, dst: I32, len: number): void {
  let k = 0;
  for (; k + 8 <= len; k += 8) fb.i64Store(dst, k, i64.const(0n));
  for (; k < len; k++) fb.i32Store8(dst, k, i32.const(0));
}

function emitDecode(cg: CurveGen): void {
  const { mb, prefix: g } = cg;
  const B = cg.B;
  const BA = cg.BA;
  const EB = cg.EB;
  const cofactorOne = cg.subgroupT === undefined;
  const compressedKinds = cg.formats.filter((f) => f.name === 'zcash-compressed' || f.name === 'arkworks-compressed').map((f) => f.code);
  mb.func(`${g}_decode_batch`, { dst: 'i32', inf: 'i32', src: 'i32', count: 'i32', format: 'i32', check: 'i32', scratch: 'i32' }, 'i32', [
    `${g}_decode_batch(dst, inf, src, count, format, check, scratch) → −1 if all count encodings at src decode, else`,
    `(index << ${STATUS_SHIFT}) | code for the first bad one (src/abi/codes.ts PointError: ${Object.entries(PointError).map(([k, v]) => `${v} ${k}`).join(', ')}); nothing is`,
    `written for it or after it. Element i: the encoding at src + i·(bytes of the format), affine point at`,
    `dst + i·${2 * EB}, inf[i] (byte) = 1 for infinity (its dst slot zeroed) else 0. format (other values trap):`,
    ...formatDocs(cg),
    `check: 0 parse (canonical coordinates < p, consistent flags, canonical infinity), 1 + on curve, 2 + subgroup`,
    cofactorOne
      ? `(cofactor 1: the same as 1, no extra work); other values trap.`
      : `(see ${g}_is_in_subgroup); other values trap.`,
    ...(compressedKinds.length ? [`Compressed points (code${compressedKinds.length > 1 ? 's' : ''} ${compressedKinds.join(', ')}) are on the curve by construction (no square root → malformed).`] : []),
    `Strict: only the encodings ${g}_encode produces are accepted (flags must match y; nothing else may be set).`,
    `scratch: ${cg.scratchElements.decode} elements (${cg.scratchBytes('decode')} bytes); must not overlap dst, inf, src.`,
    `Cost per point: 2 byte conversions (2M)${compressedKinds.length ? '; compressed: + 2M + 1S + sqrt (one fixed exponentiation) + 1M' : ''}; on curve 3M` +
      (cofactorOne ? '.' : ';'),
    ...(cofactorOne ? [] : [`subgroup see ${g}_is_in_subgroup (≈ ${subgroupCostEstimate(cg.subgroupT)} M-equivalents).`]),
  ], (fb) => {
    const dst = fb.param('dst', 'i32');
    const inf = fb.param('inf', 'i32');
    const src = fb.param('src', 'i32');
    const count = fb.param('count', 'i32');
    const format = fb.param('format', 'i32');
    const check = fb.param('check', 'i32');
    const s = fb.param('scratch', 'i32').get;
    const i = fb.local('i', 'i32');
    const enc = fb.local('enc', 'i32');
    const flags = fb.local('flags', 'i32');
    const buf = cg.el(s, 0);
    const T = cg.el(s, 1);
    const Tx = T;
    const Ty = cg.el(s, 2);
    const rhs = cg.el(s, 3);
    const bConst = cg.el(s, 4);
    const tail = cg.el(s, 5);
    const fail = (code: number) => fb.ret(i32.or(i32.shl(i.get, STATUS_SHIFT), i32.const(code)));
    const f = (op: string, ...args: I32[]) => cg.fcall(fb, op, ...args);

    fb.if(i32.gt_u(check.get, i32.const(Check.subgroup)), () => fb.line('(unreachable)'));
    trapUnlessFormat(cg, fb, format);
    cg.fp.storeConst(fb, bConst, cg.bMont);

    const body = (fmt: CurveFormat) => {
      const L = fmt.bytes;
      enc.set(i32.add(src.get, i32.mul(i.get, i32.const(L))));
      const outPtr = i32.add(dst.get, i32.mul(i.get, i32.const(2 * EB)));
      const infPtr = i32.add(inf.get, i.get);
      const writeInfinity = () => {
        f('set_zero', outPtr);
        f('set_zero', i32.add(outPtr, i32.const(EB)));
        fb.i32Store8(infPtr, 0, i32.const(1));
      };
      /** y = ±√(x³ + b) with the larger root iff `largest` (an i32 0/1); y = 0 with `largest` set is malformed. */
      const decompress = (largest: () => I32) => {
        f('sqr', rhs, Tx);
        f('mul', rhs, rhs, Tx);
        f('add', rhs, rhs, bConst);
        fb.if(i32.eqz(cg.fexpr(fb, 'sqrt', Ty, rhs, tail)), () => fail(PointError.noSquareRoot));
        fb.if(i32.ne(fb.callExpr('i32', `${g}_y_is_largest`, Ty), largest()), () => f('neg', Ty, Ty));
      };
      if (fmt.name === 'zcash' || fmt.name === 'zcash-compressed') {
        const compressed = fmt.name === 'zcash-compressed';
        flags.set(i32.shr_u(i32.load8_u(enc.get), 5));
        fb.comment(`flags = c·4 + i·2 + s (top bits of byte 0); c must be ${compressed ? 1 : 0}`);
        fb.if(i32.ne(i32.shr_u(flags.get, 2), i32.const(compressed ? 1 : 0)), () => fail(PointError.flags));
        if (!compressed) fb.if(i32.and(flags.get, i32.const(1)), () => fail(PointError.flags));
        fb.if(i32.and(flags.get, i32.const(2)), () => {
          fb.comment('infinity: sort flag clear and every other bit zero');
          fb.if(i32.and(flags.get, i32.const(1)), () => fail(PointError.flags));
          fb.if(i32.eqz(zeroBytes(enc.get, L, 0, 0xe0)), () => fail(PointError.infinity));
          writeInfinity();
        }, () => {
          copyBytes(fb, buf, enc.get, B);
          fb.i32Store8(buf, 0, i32.and(i32.load8_u(buf), i32.const(0x1f)));
          fb.if(i32.eqz(cg.fexpr(fb, 'from_bytes_be', Tx, buf)), () => fail(PointError.coordinate));
          if (compressed) {
            decompress(() => i32.and(flags.get, i32.const(1)));
            fb.comment('y = 0 has no larger root: the sort flag must then be clear');
            fb.if(i32.and(i32.and(flags.get, i32.const(1)), cg.fexpr(fb, 'is_zero', Ty)), () => fail(PointError.sign));
          } else {
            fb.if(i32.eqz(cg.fexpr(fb, 'from_bytes_be', Ty, i32.add(enc.get, i32.const(B)))), () => fail(PointError.coordinate));
          }
          checkAndStore(cg, fb, check, T, tail, outPtr, infPtr, fail, !compressed);
        });
      } else if (fmt.name === 'arkworks' || fmt.name === 'arkworks-compressed') {
        const compressed = fmt.name === 'arkworks-compressed';
        const last = L - 1;
        /** Reads the flag-carrying coordinate (BA bytes at `at`) into `out`, flag bits excluded. */
        const readFlagged = (out: I32, at: I32) => {
          if (BA === B) {
            copyBytes(fb, buf, at, B);
            fb.i32Store8(buf, B - 1, i32.and(i32.load8_u(buf, B - 1), i32.const(0x3f)));
            fb.if(i32.eqz(cg.fexpr(fb, 'from_bytes_le', out, buf)), () => fail(PointError.coordinate));
          } else {
            fb.comment('the flag byte holds no coordinate bits: bits 5..0 must be zero');
            fb.if(i32.and(i32.load8_u(enc.get, last), i32.const(0x3f)), () => fail(PointError.flags));
            fb.if(i32.eqz(cg.fexpr(fb, 'from_bytes_le', out, at)), () => fail(PointError.coordinate));
          }
        };
        flags.set(i32.shr_u(i32.load8_u(enc.get, last), 6));
        fb.comment('flags = neg·2 + inf (top bits of the last byte); both set is invalid');
        fb.if(i32.eq(flags.get, i32.const(3)), () => fail(PointError.flags));
        fb.if(i32.and(flags.get, i32.const(1)), () => {
          fb.comment(compressed ? 'infinity: x = 0' : 'infinity: x = y = 0');
          fb.if(i32.eqz(zeroBytes(enc.get, L, last, 0xc0)), () => fail(PointError.infinity));
          writeInfinity();
        }, () => {
          if (compressed) {
            readFlagged(Tx, enc.get);
            decompress(() => i32.shr_u(flags.get, 1));
            fb.comment('y = 0 is encoded with YIsNegative clear');
            fb.if(i32.and(i32.shr_u(flags.get, 1), cg.fexpr(fb, 'is_zero', Ty)), () => fail(PointError.sign));
          } else {
            fb.if(i32.eqz(cg.fexpr(fb, 'from_bytes_le', Tx, enc.get)), () => fail(PointError.coordinate));
            readFlagged(Ty, i32.add(enc.get, i32.const(B)));
            fb.comment('the YIsNegative flag must match y');
            fb.if(i32.ne(fb.callExpr('i32', `${g}_y_is_largest`, Ty), i32.shr_u(flags.get, 1)), () => fail(PointError.sign));
          }
          checkAndStore(cg, fb, check, T, tail, outPtr, infPtr, fail, !compressed);
        });
      } else {
        const endian = fmt.name === 'eip196' ? 'be' : 'le';
        fb.comment('no flags: infinity is all bytes zero ((0, 0) is not on the curve as b ≠ 0)');
        fb.if(zeroBytes(enc.get, L, -1, 0), () => writeInfinity(), () => {
          fb.if(i32.eqz(cg.fexpr(fb, `from_bytes_${endian}`, Tx, enc.get)), () => fail(PointError.coordinate));
          fb.if(i32.eqz(cg.fexpr(fb, `from_bytes_${endian}`, Ty, i32.add(enc.get, i32.const(B)))), () => fail(PointError.coordinate));
          checkAndStore(cg, fb, check, T, tail, outPtr, infPtr, fail, true);
        });
      }
    };

    for (const fmt of cg.formats) {
      fb.if(i32.eq(format.get, i32.const(fmt.code)), () => {
        fb.forRange(i, i32.const(0), count.get, 1, () => body(fmt));
      });
    }
    fb.ret(i32.const(-1));
  }, { scratch: cg.scratchBytes('decode') });
}

/** Optional on-curve and subgroup checks of the decoded point T, then T → dst slot, inf byte 0. */
function checkAndStore(cg: CurveGen, fb: FuncBuilder, check: Local<'i32'>, T: I32, tail: I32, outPtr: I32, infPtr: I32, fail: (code: number) => void, needCurveCheck: boolean): void {
  const g = cg.prefix;
  if (needCurveCheck) {
    // nested: i32.and would evaluate the curve equation for every check level
    fb.if(i32.ge_u(check.get, i32.const(Check.onCurve)), () => {
      fb.if(i32.eqz(fb.callExpr('i32', `${g}_is_on_curve`, T)), () => fail(PointError.notOnCurve));
    });
  }
  if (cg.subgroupT !== undefined) {
    fb.if(i32.ge_u(check.get, i32.const(Check.subgroup)), () => {
      fb.if(i32.eqz(fb.callExpr('i32', `${g}_is_in_subgroup`, T, tail)), () => fail(PointError.notInSubgroup));
    });
  }
  cg.copyElems(fb, outPtr, T, 2);
  fb.i32Store8(infPtr, 0, i32.const(0));
}

function emitEncode(cg: CurveGen): void {
  const { mb, prefix: g } = cg;
  const B = cg.B;
  const BA = cg.BA;
  mb.func(`${g}_encode`, { dst: 'i32', a: 'i32', isInf: 'i32', format: 'i32', scratch: 'i32' }, undefined, [
    `${g}_encode(dst, a, isInf, format, scratch): canonical encoding of the affine point a (or of infinity if isInf ≠ 0,`,
    `a then unread) at dst, in the format (other values trap):`,
    ...formatDocs(cg),
    `"y > (p − 1)/2" and "larger root" are the same predicate (${g}_y_is_largest); y = 0 never sets it.`,
    `dst must not overlap a. scratch: unused (0 bytes; reserved). Cost: 2 conversions (2M) + 1M for the sign.`,
  ], (fb) => {
    const dst = fb.param('dst', 'i32').get;
    const a = fb.param('a', 'i32').get;
    const isInf = fb.param('isInf', 'i32');
    const format = fb.param('format', 'i32');
    const x = cg.el(a, 0);
    const y = cg.el(a, 1);
    const f = (op: string, ...args: I32[]) => cg.fcall(fb, op, ...args);
    const largest = () => fb.callExpr('i32', `${g}_y_is_largest`, y);
    /** Flag bits into the last byte of the flag-carrying arkworks coordinate (shared or extra byte). */
    const arkFlags = (last: number) => {
      if (BA === B) fb.i32Store8(dst, last, i32.or(i32.load8_u(dst, last), i32.shl(largest(), 7)));
      else fb.i32Store8(dst, last, i32.shl(largest(), 7));
    };
    const body = (fmt: CurveFormat) => {
      const L = fmt.bytes;
      switch (fmt.name) {
        case 'zcash':
          fb.if(isInf.get, () => {
            zeroFill(fb, dst, L);
            fb.i32Store8(dst, 0, i32.const(0x40));
          }, () => {
            f('to_bytes_be', dst, x);
            f('to_bytes_be', i32.add(dst, i32.const(B)), y);
          });
          break;
        case 'zcash-compressed':
          fb.if(isInf.get, () => {
            zeroFill(fb, dst, L);
            fb.i32Store8(dst, 0, i32.const(0xc0));
          }, () => {
            f('to_bytes_be', dst, x);
            fb.i32Store8(dst, 0, i32.or(i32.or(i32.load8_u(dst), i32.const(0x80)), i32.shl(largest(), 5)));
          });
          break;
        case 'arkworks':
          fb.if(isInf.get, () => {
            zeroFill(fb, dst, L);
            fb.i32Store8(dst, L - 1, i32.const(0x40));
          }, () => {
            f('to_bytes_le', dst, x);
            f('to_bytes_le', i32.add(dst, i32.const(B)), y);
            arkFlags(L - 1);
          });
          break;
        case 'arkworks-compressed':
          fb.if(isInf.get, () => {
            zeroFill(fb, dst, L);
            fb.i32Store8(dst, L - 1, i32.const(0x40));
          }, () => {
            f('to_bytes_le', dst, x);
            arkFlags(L - 1);
          });
          break;
        case 'eip196':
        case 'pasta': {
          const endian = fmt.name === 'eip196' ? 'be' : 'le';
          fb.if(isInf.get, () => zeroFill(fb, dst, L), () => {
            f(`to_bytes_${endian}`, dst, x);
            f(`to_bytes_${endian}`, i32.add(dst, i32.const(B)), y);
          });
          break;
        }
      }
    };
    trapUnlessFormat(cg, fb, format);
    cg.formats.forEach((fmt, j) => {
      if (j === cg.formats.length - 1) {
        body(fmt);
        return;
      }
      fb.if(fmt.code === 0 ? i32.eqz(format.get) : i32.eq(format.get, i32.const(fmt.code)), () => {
        body(fmt);
        fb.ret();
      });
    });
  }, { scratch: cg.scratchBytes('encode') });
}
