/**
 * The Groth16 file readers (src/snarkjs/groth16) against snarkjs's own reading of the same files:
 * every header field, point (IC, A, B1, B2, C, H and the verification key's points) and coefficient of
 * a BN254 and a BLS12-381 key equal `snarkjs.zKey.exportJson` and the exported verification key; the
 * witness equals `snarkjs.wtns.exportJson`; the converters agree with the stored Montgomery bytes and
 * with pippin's own encoder. Malformed files (cut at every section boundary and inside sections,
 * wrong magic, version, section table, sizes, protocol, curve, values; witnesses of another key)
 * give FileFormatError with the expected code, section and offset, and random mutations give a key
 * or a FileFormatError, nothing else.
 *
 * Keys come from scripts/snarkjs-fixtures.ts (cached in .cache/snarkjs; the first run builds them).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as snarkjs from 'snarkjs';
import { bls12_381, bn254 } from '../src/index.js';
import { PippinError } from '../src/errors.js';
import { FileFormatError, type FileFormatCode } from '../src/snarkjs/groth16/errors.js';
import { coefficientValues, readZkey, type Groth16Key } from '../src/snarkjs/groth16/zkey.js';
import { checkWitness, readWtns, witnessValue } from '../src/snarkjs/groth16/wtns.js';
import { pointAt, pointsToStandard, SNARKJS_CURVES, type G1Point, type G2Point } from '../src/snarkjs/groth16/curves.js';
import { buildFixture, CACHE, terminateCurves, TEST_FIXTURES, type Fixture, type FixtureSpec } from '../scripts/snarkjs-fixtures.js';
import { le, rng } from './helpers/snarkjs.js';

type CurveName = 'bn128' | 'bls12381';
/** the suite's two fixtures by curve, and a one-constraint circuit (its witness has another length; it also gets an FFLONK key) */
type KeyName = CurveName | 'mul';
const MUL: FixtureSpec = {
  name: 'groth16-files-mul-bn128',
  source: 'poseidon_bits.circom', // included, unused: the circuit is the template below
  main: 'template Mul() { signal input a; signal input b; signal output c; c <== a * b; }\ncomponent main { public [b] } = Mul();',
  prime: 'bn128',
  protocols: ['groth16'],
  input: { a: '3', b: '5' },
};
interface Files {
  fixture: Fixture;
  zkey: Uint8Array;
  wtns: Uint8Array;
  /** snarkjs.zKey.exportJson: every bigint as a decimal string */
  json: Record<string, unknown> & { ccoefs: { matrix: number; constraint: number; signal: number; value: string }[] };
  witness: bigint[];
}
const files = {} as Record<KeyName, Files>;
let plonk: Uint8Array;
let fflonk: Uint8Array;

before(async () => {
  for (const spec of [...TEST_FIXTURES, MUL]) {
    const fixture = await buildFixture(spec);
    files[spec === MUL ? 'mul' : spec.prime] = {
      fixture,
      zkey: new Uint8Array(readFileSync(fixture.zkey.groth16!)),
      wtns: new Uint8Array(readFileSync(fixture.wtns)),
      json: await snarkjs.zKey.exportJson(fixture.zkey.groth16!),
      witness: await snarkjs.wtns.exportJson(fixture.wtns),
    };
    if (fixture.zkey.plonk) plonk = new Uint8Array(readFileSync(fixture.zkey.plonk));
  }
  assert.ok(plonk, 'the test fixtures include a PLONK key');
  // an FFLONK key of the one-constraint circuit (made once: 50 ms), on any BN254 powers of tau made for the fixtures
  const fflonkFile = join(dirname(files.mul.fixture.r1cs), 'fflonk.zkey');
  if (!existsSync(fflonkFile)) {
    const ptau = readdirSync(join(CACHE, 'ptau')).filter((f) => /^bn128_\d+\.ptau$/.test(f));
    const tmp = `${fflonkFile}.tmp${process.pid}`;
    try {
      await snarkjs.fflonk.setup(files.mul.fixture.r1cs, join(CACHE, 'ptau', ptau[0]), tmp);
      renameSync(tmp, fflonkFile);
    } finally {
      rmSync(tmp, { force: true });
    }
  }
  fflonk = new Uint8Array(readFileSync(fflonkFile));
  await bn254.init();
  await bls12_381.init();
});

after(async () => {
  await terminateCurves();
});

// ---- the container, parsed independently of the reader under test ----
interface Sec {
  type: number;
  /** offset of the section's 12-byte header */
  header: number;
  start: number;
  size: number;
}
function sectionsOf(bytes: Uint8Array): Sec[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Sec[] = [];
  let pos = 12;
  for (let i = 0; i < dv.getUint32(8, true); i++) {
    const size = Number(dv.getBigUint64(pos + 4, true));
    out.push({ type: dv.getUint32(pos, true), header: pos, start: pos + 12, size });
    pos += 12 + size;
  }
  assert.equal(pos, bytes.length);
  return out;
}
const section = (bytes: Uint8Array, type: number) => sectionsOf(bytes).find((s) => s.type === type)!;
/** A container from parts: the original's magic and version, the given sections in order. */
function rebuild(bytes: Uint8Array, parts: { type: number; payload: Uint8Array }[]): Uint8Array {
  const out = new Uint8Array(12 + parts.reduce((n, p) => n + 12 + p.payload.length, 0));
  const dv = new DataView(out.buffer);
  out.set(bytes.subarray(0, 8));
  dv.setUint32(8, parts.length, true);
  let pos = 12;
  for (const p of parts) {
    dv.setUint32(pos, p.type, true);
    dv.setBigUint64(pos + 4, BigInt(p.payload.length), true);
    out.set(p.payload, pos + 12);
    pos += 12 + p.payload.length;
  }
  return out;
}
const partsOf = (bytes: Uint8Array) => sectionsOf(bytes).map((s) => ({ type: s.type, payload: bytes.slice(s.start, s.start + s.size) }));
function withU32(bytes: Uint8Array, offset: number, v: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(offset, v, true);
  return out;
}
function withBytes(bytes: Uint8Array, offset: number, v: ArrayLike<number>): Uint8Array {
  const out = bytes.slice();
  out.set(v, offset);
  return out;
}

function throwsFormat(fn: () => unknown, code: FileFormatCode, where: { section?: number | null; offset?: number; message?: RegExp } = {}): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof FileFormatError, `not a FileFormatError: ${String(e)}`);
    assert.ok(e instanceof PippinError);
    assert.equal(e.name, 'FileFormatError');
    assert.equal(e.code, code, e.message);
    if (where.section !== undefined) assert.equal(e.section, where.section, e.message);
    if (where.offset !== undefined) assert.equal(e.offset, where.offset, e.message);
    if (where.message) assert.match(e.message, where.message);
    return true;
  });
}

// ---- snarkjs's JSON shapes: projective, [0, 1, 0] for infinity ----
const g1Json = (p: G1Point) => (p ? [p.x, p.y, 1n] : [0n, 1n, 0n]);
const g2Json = (p: G2Point) => (p ? [p.x, p.y, [1n, 0n]] : [[0n, 0n], [1n, 0n], [0n, 0n]]);
const strings = (v: unknown): unknown => (Array.isArray(v) ? v.map(strings) : String(v));
function g1s(key: Groth16Key, bytes: Uint8Array) {
  return Array.from({ length: bytes.length / key.curve.g1Bytes }, (_, i) => g1Json(pointAt(key.curve, 'G1', bytes, i)));
}
function g2s(key: Groth16Key, bytes: Uint8Array) {
  return Array.from({ length: bytes.length / key.curve.g2Bytes }, (_, i) => g2Json(pointAt(key.curve, 'G2', bytes, i)));
}
const leInt = (b: Uint8Array, o: number, n: number) => b.subarray(o, o + n).reduceRight((v, x) => (v << 8n) | BigInt(x), 0n);

describe('readZkey and readWtns read what snarkjs reads', () => {
  for (const c of ['bn128', 'bls12381', 'mul'] as const) {
    test(`${c}: header, verification key, IC, coefficients, A/B1/B2/C/H and the witness equal snarkjs's export`, () => {
      const { zkey, wtns, json, witness, fixture } = files[c];
      const key = readZkey(zkey);
      const curve = SNARKJS_CURVES[fixture.spec.prime];
      assert.equal(key.protocol, 'groth16');
      assert.equal(key.curve, curve);
      assert.equal(json.protocol, 'groth16');
      assert.deepEqual([curve.n8q, String(curve.q), curve.n8r, String(curve.r)], [json.n8q, json.q, json.n8r, json.r]);
      assert.deepEqual([key.nVars, key.nPublic, key.domainSize, key.power], [json.nVars, json.nPublic, json.domainSize, json.power]);
      assert.ok(key.nPublic >= 1 && key.domainSize >= fixture.constraints);
      const vk = fixture.vkey.groth16 as Record<string, unknown>;
      assert.equal(vk.curve, curve.name);
      assert.equal(vk.nPublic, key.nPublic);
      for (const [mine, theirs] of [[key.alpha1, 'vk_alpha_1'], [key.beta1, 'vk_beta_1'], [key.delta1, 'vk_delta_1']] as const) {
        assert.deepEqual(strings(g1s(key, mine)), [json[theirs]], theirs);
      }
      for (const [mine, theirs] of [[key.beta2, 'vk_beta_2'], [key.gamma2, 'vk_gamma_2'], [key.delta2, 'vk_delta_2']] as const) {
        assert.deepEqual(strings(g2s(key, mine)), [json[theirs]], theirs);
      }
      assert.deepEqual(strings(g1s(key, key.alpha1)[0]), vk.vk_alpha_1);
      assert.deepEqual(strings(g2s(key, key.beta2)[0]), vk.vk_beta_2);
      assert.deepEqual(strings(g2s(key, key.gamma2)[0]), vk.vk_gamma_2);
      assert.deepEqual(strings(g2s(key, key.delta2)[0]), vk.vk_delta_2);
      assert.deepEqual(strings(g1s(key, key.IC)), vk.IC);
      assert.deepEqual(strings(g1s(key, key.IC)), json.IC);
      // point sections: counts and every point
      assert.deepEqual(strings(g1s(key, key.A)), json.A, 'A');
      assert.deepEqual(strings(g1s(key, key.B1)), json.B1, 'B1');
      assert.deepEqual(strings(g2s(key, key.B2)), json.B2, 'B2');
      assert.deepEqual(strings(g1s(key, key.C)), (json.C as unknown[]).slice(key.nPublic + 1), 'C');
      assert.equal((json.C as unknown[]).length, key.nVars);
      assert.deepEqual(strings(g1s(key, key.H)), json.hExps, 'H');
      assert.equal(key.H.length, key.domainSize * curve.g1Bytes);
      assert.ok(g1s(key, key.B1).some((p) => p[2] === 0n) && g1s(key, key.A).some((p) => p[2] === 1n), 'infinity and finite points both occur');
      // coefficients
      const co = key.coefficients;
      assert.equal(co.count, json.ccoefs.length);
      assert.deepEqual([co.matrix.length, co.constraint.length, co.signal.length, co.values.length], [co.count, co.count, co.count, co.count * 32]);
      const standard = coefficientValues(key, 'standard');
      const montgomery = coefficientValues(key, 'montgomery');
      const R = 1n << 256n;
      for (let i = 0; i < co.count; i++) {
        const t = json.ccoefs[i];
        const v = BigInt(t.value);
        assert.deepEqual([co.matrix[i], co.constraint[i], co.signal[i], leInt(standard, 32 * i, 32)], [t.matrix, t.constraint, t.signal, v], `coefficient ${i}`);
        assert.equal(leInt(montgomery, 32 * i, 32), (v * R) % curve.r);
        assert.equal(leInt(co.values, 32 * i, 32), (v * R * R) % curve.r, 'stored as v·R² mod r');
      }
      assert.ok(new Set(co.matrix).size === 2, 'both matrices occur');
      // witness
      const w = readWtns(wtns);
      assert.equal(w.curve, curve);
      assert.equal(w.prime, curve.r);
      assert.equal(w.n8, 32);
      assert.equal(w.nWitness, witness.length);
      assert.deepEqual(Array.from({ length: w.nWitness }, (_, i) => witnessValue(w, i)), witness);
      assert.deepEqual(w.values, Uint8Array.from(witness.flatMap((v) => [...le(v, 32)])));
      checkWitness(key, w);
    });

    test(`${c}: points are stored in Montgomery form; pointsToStandard gives standard LE and pippin's primary encoding`, () => {
      const key = readZkey(files[c].zkey);
      const { q, n8q } = key.curve;
      const R = 1n << BigInt(8 * n8q);
      const group = { bn128: bn254, bls12381: bls12_381 }[key.curve.name];
      for (const [name, bytes, g] of [['IC', key.IC, 'G1'], ['B1', key.B1, 'G1'], ['B2', key.B2, 'G2'], ['alpha1', key.alpha1, 'G1'], ['delta2', key.delta2, 'G2']] as const) {
        const size = g === 'G1' ? key.curve.g1Bytes : key.curve.g2Bytes;
        const n = bytes.length / size;
        const std = pointsToStandard(key.curve, g, bytes);
        const primary = pointsToStandard(key.curve, g, bytes, 'primary');
        for (let i = 0; i < n; i++) {
          const p = g === 'G1' ? pointAt(key.curve, 'G1', bytes, i) : pointAt(key.curve, 'G2', bytes, i);
          const coords = p === null ? [] : g === 'G1' ? [(p as NonNullable<G1Point>).x, (p as NonNullable<G1Point>).y] : [...(p as NonNullable<G2Point>).x, ...(p as NonNullable<G2Point>).y];
          for (let j = 0; j < coords.length; j++) {
            assert.equal(leInt(bytes, i * size + j * n8q, n8q), (coords[j] * R) % q, `${name} ${i}: stored x·R mod q`);
            assert.equal(leInt(std, i * size + j * n8q, n8q), coords[j], `${name} ${i}: standard LE`);
          }
          if (p === null) assert.ok(std.subarray(i * size, (i + 1) * size).every((b) => b === 0));
          const encoded = g === 'G1' ? group.g1.toBytes(p as G1Point) : group.g2.toBytes(p as G2Point);
          assert.deepEqual(primary.subarray(i * size, (i + 1) * size), encoded, `${name} ${i}: pippin's primary format`);
        }
      }
    });
  }

  test('the input may be a view at any byte offset (word-aligned sections or not); point sections are views of it', () => {
    for (const c of ['bn128', 'bls12381'] as const) {
      const { zkey, wtns } = files[c];
      const ref = readZkey(zkey);
      for (const off of [1, 2, 3]) {
        const big = new Uint8Array(zkey.length + 7);
        big.set(zkey, off);
        const key = readZkey(big.subarray(off, off + zkey.length));
        for (const k of ['alpha1', 'beta2', 'IC', 'A', 'B2', 'C', 'H'] as const) assert.deepEqual(key[k], ref[k], k);
        assert.deepEqual(key.coefficients, ref.coefficients);
        assert.equal(key.A.buffer, big.buffer);
        const wb = new Uint8Array(wtns.length + 5);
        wb.set(wtns, off);
        assert.deepEqual(readWtns(wb.subarray(off, off + wtns.length)).values, readWtns(wtns).values);
      }
    }
  });
});

describe('malformed files give FileFormatError', () => {
  test('cut at every section boundary, inside every section header and payload, and every prefix of a witness', () => {
    const cases: [string, Uint8Array, (b: Uint8Array) => unknown][] = [
      ['bn128 zkey', files.bn128.zkey, readZkey],
      ['bls12381 zkey', files.bls12381.zkey, readZkey],
      ['bn128 wtns', files.bn128.wtns, readWtns],
      ['bls12381 wtns', files.bls12381.wtns, readWtns],
      ['plonk zkey', plonk, readZkey],
      ['fflonk zkey', fflonk, readZkey],
    ];
    let checked = 0;
    for (const [name, bytes, read] of cases) {
      const cuts = new Map<number, number | null>([[0, null], [1, null], [3, null], [4, null], [8, null], [11, null]]);
      for (const s of sectionsOf(bytes)) {
        for (const d of [0, 1, 4, 11]) cuts.set(s.header + d, null); // at the boundary, inside the header
        for (const d of [0, 1, s.size >> 1, s.size - 1]) if (d >= 0 && d < s.size) cuts.set(s.start + d, s.type); // inside the payload
      }
      cuts.delete(bytes.length);
      for (const [cut, type] of cuts) {
        throwsFormat(() => read(bytes.subarray(0, cut)), 'truncated', { offset: cut, section: type });
        checked++;
      }
    }
    const w = files.bls12381.wtns;
    for (let cut = 0; cut < w.length; cut++) {
      throwsFormat(() => readWtns(w.slice(0, cut)), 'truncated', { offset: cut });
      checked++;
    }
    assert.ok(checked > w.length + 100);
  });

  test('magic, version, section table and sizes', () => {
    const z = files.bn128.zkey;
    const w = files.bn128.wtns;
    throwsFormat(() => readZkey(withBytes(z, 0, [0x5a])), 'magic', { offset: 0, message: /not a zkey file \(magic "Zkey"\)/ });
    throwsFormat(() => readZkey(w), 'magic');
    throwsFormat(() => readWtns(z), 'magic');
    throwsFormat(() => readZkey(new Uint8Array(0)), 'truncated', { offset: 0 });
    throwsFormat(() => readZkey(withU32(z, 4, 2)), 'version', { offset: 4 });
    throwsFormat(() => readZkey(withU32(z, 4, 0)), 'version');
    throwsFormat(() => readWtns(withU32(w, 4, 3)), 'version');
    assert.equal(readWtns(withU32(w, 4, 1)).nWitness, files.bn128.witness.length, 'wtns version 1 has the same layout');
    // a section count past the end: truncated, never a long loop
    throwsFormat(() => readZkey(withU32(z, 8, 0xffffffff)), 'truncated', { offset: z.length });
    throwsFormat(() => readZkey(withU32(z, 8, 9)), 'trailing-data');
    throwsFormat(() => readZkey(Uint8Array.from([...z, 0])), 'trailing-data', { offset: z.length });
    // a size with high bits set
    const s3 = section(z, 3);
    throwsFormat(() => readZkey(withU32(z, s3.header + 8, 1)), 'truncated', { section: 3 });
    throwsFormat(() => readZkey(withU32(z, s3.header + 4, 0xffffffff)), 'truncated', { section: 3 });
    const parts = partsOf(z);
    const without = (t: number) => parts.filter((p) => p.type !== t);
    const rename = (from: number, to: number) => parts.map((p) => (p.type === from ? { ...p, type: to } : p));
    assert.equal(readZkey(rebuild(z, without(10))).nVars, files.bn128.json.nVars, 'the contributions section is optional');
    assert.equal(readZkey(rebuild(z, [...parts].reverse())).nVars, files.bn128.json.nVars, 'sections in any order');
    for (const t of [1, 2, 3, 4, 5, 6, 7, 8, 9]) throwsFormat(() => readZkey(rebuild(z, without(t))), 'section-missing', { section: t });
    throwsFormat(() => readZkey(rebuild(z, rename(10, 11))), 'section-unknown', { section: 11 });
    throwsFormat(() => readZkey(rebuild(z, [...parts, { type: 0, payload: new Uint8Array(3) }])), 'section-unknown', { section: 0 });
    throwsFormat(() => readZkey(rebuild(z, rename(6, 5))), 'section-duplicate', { section: 5 });
    throwsFormat(() => readZkey(rebuild(z, [...parts, parts.find((p) => p.type === 1)!])), 'section-duplicate', { section: 1 });
    throwsFormat(() => readWtns(rebuild(w, [...partsOf(w), { type: 3, payload: new Uint8Array(0) }])), 'section-unknown', { section: 3 });
    throwsFormat(() => readWtns(rebuild(w, partsOf(w).slice(0, 1))), 'section-missing', { section: 2 });
    // each section one byte longer (a zero appended), then one shorter
    for (const t of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      const longer = parts.map((p) => (p.type === t ? { ...p, payload: Uint8Array.from([...p.payload, 0]) } : p));
      throwsFormat(() => readZkey(rebuild(z, longer)), 'section-size', { section: t });
      const shorter = parts.map((p) => (p.type === t ? { ...p, payload: p.payload.subarray(0, p.payload.length - 1) } : p));
      throwsFormat(() => readZkey(rebuild(z, shorter)), 'section-size', { section: t });
    }
    for (const t of [1, 2]) {
      const longer = partsOf(w).map((p) => (p.type === t ? { ...p, payload: Uint8Array.from([...p.payload, 0]) } : p));
      throwsFormat(() => readWtns(rebuild(w, longer)), 'section-size', { section: t });
    }
    // a coefficient count that disagrees with the records
    const s4 = section(z, 4);
    throwsFormat(() => readZkey(withU32(z, s4.start, files.bn128.json.ccoefs.length + 1)), 'section-size', { section: 4 });
    throwsFormat(() => readZkey(withU32(z, s4.start, 0xffffffff)), 'section-size', { section: 4 });
  });

  test('wrong protocol: a PLONK key, an FFLONK key, protocol ids flipped', () => {
    throwsFormat(() => readZkey(plonk), 'protocol', { section: 1, message: /not a Groth16 key: a PLONK key/ });
    throwsFormat(() => readZkey(fflonk), 'protocol', { section: 1, offset: section(fflonk, 1).start, message: /not a Groth16 key: an FFLONK key/ });
    const z = files.bls12381.zkey;
    const at = section(z, 1).start;
    throwsFormat(() => readZkey(withU32(z, at, 2)), 'protocol', { section: 1, offset: at, message: /PLONK/ });
    throwsFormat(() => readZkey(withU32(z, at, 10)), 'protocol', { message: /an FFLONK key/ });
    throwsFormat(() => readZkey(withU32(z, at, 0)), 'protocol', { message: /unknown protocol id 0/ });
    // a Groth16 id on a PLONK key: its sections are not a Groth16 key's
    assert.throws(() => readZkey(withU32(plonk, section(plonk, 1).start, 1)), FileFormatError);
  });

  test('unsupported curves and out-of-range values', () => {
    for (const c of ['bn128', 'bls12381'] as const) {
      const z = files[c].zkey;
      const { n8q, q, r } = SNARKJS_CURVES[c];
      const h = section(z, 2).start;
      throwsFormat(() => readZkey(withBytes(z, h + 4, [z[h + 4] ^ 2])), 'curve', { section: 2, offset: h + 4, message: /no supported curve/ });
      throwsFormat(() => readZkey(withBytes(z, h + 8 + n8q, [z[h + 8 + n8q] ^ 2])), 'curve', { section: 2, offset: h + 8 + n8q });
      throwsFormat(() => readZkey(withU32(z, h, 40)), 'curve', { section: 2, offset: h });
      throwsFormat(() => readZkey(withU32(z, h, 80 - n8q)), 'curve', { section: 2 }); // the other curve's size
      throwsFormat(() => readZkey(withU32(z, h + 4 + n8q, 48)), 'curve', { section: 2 });
      const key = readZkey(z);
      const nv = h + 8 + n8q + 32;
      throwsFormat(() => readZkey(withU32(z, nv + 4, key.nVars)), 'value', { section: 2, message: /nPublic < nVars/ });
      throwsFormat(() => readZkey(withU32(z, nv, 0)), 'value', { section: 2 });
      throwsFormat(() => readZkey(withU32(z, nv + 8, key.domainSize - 1)), 'value', { section: 2, offset: nv + 8 });
      // coefficient records: matrix, constraint, signal, value out of range
      const rec = section(z, 4).start + 4 + 5 * 44;
      throwsFormat(() => readZkey(withU32(z, rec, 2)), 'value', { section: 4, offset: rec, message: /coefficient 5: matrix 2/ });
      throwsFormat(() => readZkey(withU32(z, rec + 4, key.domainSize)), 'value', { section: 4, offset: rec + 4 });
      throwsFormat(() => readZkey(withU32(z, rec + 8, key.nVars)), 'value', { section: 4, offset: rec + 8 });
      assert.equal(readZkey(withU32(z, rec + 8, key.nVars - 1)).coefficients.signal[5], key.nVars - 1);
      throwsFormat(() => readZkey(withBytes(z, rec + 12, le(r, 32))), 'value', { section: 4, offset: rec + 12, message: /not below r/ });
      // a point coordinate equal to q (header point, IC, A, B2, H)
      for (const [t, d] of [[2, 20 + n8q + 32 + n8q], [3, 0], [5, 2 * n8q * 7 + n8q], [7, 3 * n8q], [9, section(z, 9).size - n8q]] as const) {
        const at = section(z, t).start + d;
        throwsFormat(() => readZkey(withBytes(z, at, le(q, n8q))), 'value', { section: t, offset: at, message: /not below q/ });
        assert.ok(readZkey(withBytes(z, at, le(q - 1n, n8q))), 'q − 1 is a valid residue');
      }
      // witness: another prime, a value not below r
      const w = files[c].wtns;
      const wh = section(w, 1).start;
      throwsFormat(() => readWtns(withBytes(w, wh + 4, le(r + 2n, 32))), 'curve', { section: 1, offset: wh + 4 });
      throwsFormat(() => readWtns(withBytes(w, wh + 4, le(q % (1n << 256n), 32))), 'curve');
      throwsFormat(() => readWtns(withU32(w, wh, 48)), 'curve', { section: 1 });
      const wv = section(w, 2).start;
      throwsFormat(() => readWtns(withBytes(w, wv + 32 * 3, le(r, 32))), 'value', { section: 2, offset: wv + 96 });
    }
  });

  test('checkWitness: the prime, the length and the constant signal of the key', () => {
    const bn = readZkey(files.bn128.zkey);
    const bls = readZkey(files.bls12381.zkey);
    const wbn = readWtns(files.bn128.wtns);
    const wbls = readWtns(files.bls12381.wtns);
    checkWitness(bn, wbn);
    checkWitness(bls, wbls);
    throwsFormat(() => checkWitness(bls, wbn), 'witness-prime', { message: /bn128's scalar field, the key over bls12381's/ });
    throwsFormat(() => checkWitness(bn, wbls), 'witness-prime');
    // another circuit's witness on the same curve
    const mul = readWtns(files.mul.wtns);
    checkWitness(readZkey(files.mul.zkey), mul);
    throwsFormat(() => checkWitness(bn, mul), 'witness-length', { message: new RegExp(`^wtns: ${mul.nWitness} witness values, the key has ${bn.nVars} signals$`) });
    const w = files.bn128.wtns;
    const [head, values] = partsOf(w);
    for (const d of [-1, 1]) {
      const n = wbn.nWitness + d;
      const payload = new Uint8Array(n * 32);
      payload.set(values.payload.subarray(0, Math.min(values.payload.length, n * 32)));
      const other = readWtns(rebuild(w, [{ type: 1, payload: withU32(head.payload, 36, n) }, { type: 2, payload }]));
      assert.equal(other.nWitness, n);
      throwsFormat(() => checkWitness(bn, other), 'witness-length', { message: new RegExp(`${n} witness values, the key has ${bn.nVars}`) });
    }
    throwsFormat(() => checkWitness(bn, readWtns(withBytes(w, section(w, 2).start, [2]))), 'value', { message: /constant signal/ });
  });

  test('random mutations of headers and section tables: a key or a FileFormatError, never another error', () => {
    const next = rng(32);
    let errors = 0;
    for (const [bytes, read] of [[files.bls12381.zkey, readZkey], [files.bn128.wtns, readWtns], [files.bn128.zkey, readZkey]] as const) {
      const secs = sectionsOf(bytes);
      // the container header, section headers, and the first 64 bytes of every payload
      const spots = [...Array(12).keys(), ...secs.flatMap((s) => [...Array(12 + Math.min(64, s.size)).keys()].map((d) => s.header + d))];
      for (let k = 0; k < 600; k++) {
        const m = bytes.slice();
        for (let j = 1 + (next() % 3); j > 0; j--) m[spots[next() % spots.length]] ^= 1 << next() % 8;
        try {
          (read as (b: Uint8Array) => unknown)(m);
        } catch (e) {
          assert.ok(e instanceof FileFormatError, String((e as Error)?.stack ?? e));
          errors++;
        }
      }
    }
    assert.ok(errors > 1000, `${errors} of 1800 mutations rejected`);
  });
});
