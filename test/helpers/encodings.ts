/**
 * Point and scalar bytes written from the format specifications (src/abi/codes.ts), independently
 * of the library's encoder: an oracle for toBytes and a source of byte inputs. Coordinates are
 * written as given (not reduced), so malformed and off-curve encodings can be built too.
 */
import type { Pt } from './known-logs.js';

const bitLength = (v: bigint) => v.toString(2).length;

function le(v: bigint, len: number): Uint8Array {
  const out = new Uint8Array(len);
  for (let b = 0; b < len; b++, v >>= 8n) out[b] = Number(v & 0xffn);
  return out;
}
const be = (v: bigint, len: number) => le(v, len).reverse();
const cat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of parts) {
    out.set(a, at);
    at += a.length;
  }
  return out;
};

/** Bytes of one field element (B) and of arkworks' flag-carrying coordinate (⌈(bits(p) + 2)/8⌉). */
export function coordinateBytes(p: bigint): { B: number; flagged: number } {
  return { B: Math.ceil(bitLength(p) / 8), flagged: Math.ceil((bitLength(p) + 2) / 8) };
}

/** One point in the named format (null = infinity); y > (p − 1)/2 sets the sign/sort flag. */
export function encodePoint(p: bigint, format: string, P: Pt): Uint8Array {
  const { B, flagged } = coordinateBytes(p);
  const big = P !== null && P.y > (p - 1n) / 2n;
  const { x, y } = P ?? { x: 0n, y: 0n };
  switch (format) {
    case 'zcash': {
      // flags in the top 3 bits of byte 0: compressed (0x80), infinity (0x40), sort (0x20, compressed only)
      const out = cat(be(x, B), be(y, B));
      if (P === null) out[0] = 0x40;
      return out;
    }
    case 'zcash-compressed': {
      const out = be(x, B);
      out[0] |= P === null ? 0xc0 : big ? 0xa0 : 0x80;
      return out;
    }
    case 'eip196':
      return cat(be(x, B), be(y, B));
    case 'pasta':
      return cat(le(x, B), le(y, B));
    case 'arkworks':
    case 'arkworks-compressed': {
      // last byte: bit 7 = y > (p − 1)/2, bit 6 = infinity (coordinates zero)
      const out = format === 'arkworks' ? cat(le(x, B), le(y, flagged)) : le(x, flagged);
      out[out.length - 1] |= P === null ? 0x40 : big ? 0x80 : 0;
      return out;
    }
    default:
      throw new Error(`encodePoint: no spec encoder for ${format}`);
  }
}

export function encodePoints(p: bigint, format: string, pts: readonly Pt[]): Uint8Array {
  return cat(...pts.map((P) => encodePoint(p, format, P)));
}

/** 32 bytes per scalar, each in [0, 2^256). */
export function scalarBytes(s: readonly bigint[], endian: 'le' | 'be' = 'le'): Uint8Array {
  return cat(
    ...s.map((v) => {
      if (v < 0n || v >> 256n) throw new RangeError(`scalarBytes: ${v} is not in [0, 2^256)`);
      return endian === 'le' ? le(v, 32) : be(v, 32);
    }),
  );
}

/** A G2 point (coordinates in F_p² as [c0, c1]); null = infinity. */
export type Pt2 = { x: readonly [bigint, bigint]; y: readonly [bigint, bigint] } | null;

/**
 * One G2 point in the named format, from the format rules (coordinates written as given): ZCash and
 * EIP-197 big-endian c1 before c0 (ZCash's flags in byte 0, EIP-197's infinity all zero), arkworks
 * little-endian c0 before c1 with its flags in the last byte. The sign/sort flag: y > −y in F_p²
 * ordered by c1, then c0.
 */
export function encodeG2Point(p: bigint, format: string, P: Pt2): Uint8Array {
  const { B } = coordinateBytes(p);
  const half = (p - 1n) / 2n;
  const big = P !== null && (P.y[1] !== 0n ? P.y[1] > half : P.y[0] > half);
  const { x, y } = P ?? { x: [0n, 0n], y: [0n, 0n] };
  switch (format) {
    case 'zcash':
    case 'eip197': {
      const out = cat(be(x[1], B), be(x[0], B), be(y[1], B), be(y[0], B));
      if (P === null && format === 'zcash') out[0] = 0x40;
      return out;
    }
    case 'zcash-compressed': {
      const out = cat(be(x[1], B), be(x[0], B));
      out[0] |= P === null ? 0xc0 : big ? 0xa0 : 0x80;
      return out;
    }
    case 'arkworks':
    case 'arkworks-compressed': {
      const out = format === 'arkworks' ? cat(le(x[0], B), le(x[1], B), le(y[0], B), le(y[1], B)) : cat(le(x[0], B), le(x[1], B));
      out[out.length - 1] |= P === null ? 0x40 : big ? 0x80 : 0;
      return out;
    }
    default:
      throw new Error(`encodeG2Point: no spec encoder for ${format}`);
  }
}
