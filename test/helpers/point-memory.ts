/**
 * Field elements and G1 points in a Wasm instance's memory, for kernel tests: Montgomery-form
 * writes (optionally in the redundant range [p, 2p)), affine and XYZZ points (random projective
 * scale; infinity with garbage coordinates and ZZ ≡ 0 as raw 0 or raw p), Jacobian points alike, and reads back through
 * the bigint field, checking the XYZZ invariant ZZ³ = ZZZ².
 */
import assert from 'node:assert/strict';
import type { WasmField } from '../../src/runtime/field.js';
import type { RefField } from '../../src/reference/field.js';
import type { Affine, AffinePoint } from '../../src/reference/curve.js';
import type { makeRng } from '../../src/reference/rng.js';

export function pointMemory(F: WasmField, Fp: RefField, rng: ReturnType<typeof makeRng>) {
  const p = F.info.p;
  const EB = F.info.elementBytes;
  const Rmont = F.R % p;
  /** Writes v (mod p) in Montgomery form; `redundant` adds p to the raw value when that stays < 2p. */
  const writeEl = (ptr: number, v: bigint, redundant = false): void => {
    const m = (Fp.mod(v) * Rmont) % p;
    F.writeLimbs(ptr, redundant && m + p < 2n * p ? m + p : m);
  };
  const readEl = (ptr: number) => F.read(ptr);
  const writeAffine = (ptr: number, P: AffinePoint, redundant = false): void => {
    writeEl(ptr, P.x, redundant);
    writeEl(ptr + EB, P.y, redundant);
  };
  const readAffine = (ptr: number): AffinePoint => ({ x: readEl(ptr), y: readEl(ptr + EB) });
  /** Infinity in projective form: garbage X, Y, the zero coordinate ≡ 0 (raw 0 or raw p, by s's low bit). */
  const writeInfinity = (ptr: number, s: bigint): void => {
    writeEl(ptr, Fp.random(rng));
    writeEl(ptr + EB, Fp.random(rng));
    if (s & 1n) F.writeLimbs(ptr + 2 * EB, p);
    else writeEl(ptr + 2 * EB, 0n);
  };
  /** XYZZ with ZZ = s², ZZZ = s³; infinity gets garbage X, Y and ZZ ≡ 0 (raw 0 or raw p). */
  const writeXyzz = (ptr: number, P: Affine, s: bigint = Fp.random(rng) || 1n): void => {
    if (P === null) {
      writeInfinity(ptr, s);
      writeEl(ptr + 3 * EB, Fp.random(rng));
      return;
    }
    const s2 = Fp.sqr(s);
    const s3 = Fp.mul(s2, s);
    writeEl(ptr, Fp.mul(P.x, s2), (s & 2n) !== 0n);
    writeEl(ptr + EB, Fp.mul(P.y, s3));
    writeEl(ptr + 2 * EB, s2, (s & 4n) !== 0n);
    writeEl(ptr + 3 * EB, s3);
  };
  /** Reads an XYZZ point back; asserts the ZZ³ = ZZZ² invariant on finite points. */
  const readXyzz = (ptr: number): Affine => {
    const [X, Y, ZZ, ZZZ] = [0, 1, 2, 3].map((j) => readEl(ptr + j * EB));
    if (ZZ === 0n) return null;
    assert.equal(Fp.pow(ZZ, 3n), Fp.sqr(ZZZ), 'XYZZ invariant ZZ³ = ZZZ²');
    return { x: Fp.div(X, ZZ), y: Fp.div(Y, ZZZ) };
  };
  /** Jacobian (x = X/Z², y = Y/Z³) with Z = s; infinity gets garbage X, Y and Z ≡ 0 (raw 0 or raw p). */
  const writeJac = (ptr: number, P: Affine, s: bigint = Fp.random(rng) || 1n): void => {
    if (P === null) return writeInfinity(ptr, s);
    writeEl(ptr, Fp.mul(P.x, Fp.sqr(s)), (s & 2n) !== 0n);
    writeEl(ptr + EB, Fp.mul(P.y, Fp.pow(s, 3n)));
    writeEl(ptr + 2 * EB, s, (s & 4n) !== 0n);
  };
  const readJac = (ptr: number): Affine => {
    const [X, Y, Z] = [0, 1, 2].map((j) => readEl(ptr + j * EB));
    return Z === 0n ? null : { x: Fp.div(X, Fp.sqr(Z)), y: Fp.div(Y, Fp.pow(Z, 3n)) };
  };
  const show = (P: Affine) => (P === null ? 'O' : `(${P.x.toString(16).slice(0, 10)}…, ${P.y.toString(16).slice(0, 10)}…)`);
  return { writeEl, readEl, writeAffine, readAffine, writeXyzz, readXyzz, writeJac, readJac, show };
}
