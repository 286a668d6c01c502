/**
 * pippin/kzg, EIP-4844 side: blobToKzgCommitment, computeKzgProof, computeBlobKzgProof byte for
 * byte against the c-kzg 4.1.0 native binding (the oracle, same setup) on edge blobs (all zero,
 * all r − 1, one non-zero element, small values, a low-degree polynomial) and random ones; z
 * outside the domain, at a root of unity of the domain, 0 and 1; bad input → typed errors naming
 * the element, with later calls unaffected; the shipped setup's SHA-256 against c-kzg's copy; the
 * SHA-256 of the Fiat–Shamir challenge against node:crypto; two threads.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LengthMismatchError, NotInSubgroupError, NotOnCurveError, PointEncodingError, ScalarEncodingError, startThreads, stopThreads } from '../src/index.js';
import { loadKzg, TrustedSetupError, type Kzg } from '../src/kzg/index.js';
import { TRUSTED_SETUP_TEXT } from '../src/kzg/trusted-setup.js';
import { sha256, sha256All, sha256IsNative, sha256Js } from '../src/kzg/sha256.js';
import * as fr from '../src/kzg/fr.js';
import { kzgBlobs } from '../examples/kzg-4844/blobs.js';

const require = createRequire(import.meta.url);
const ckzg = require('c-kzg') as typeof import('c-kzg');
const CKZG_SETUP = join(dirname(require.resolve('c-kzg/package.json')), 'deps/c-kzg/trusted_setup.txt');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('pippin/kzg: EIP-4844 against c-kzg', { timeout: 300_000 }, () => {
  let kzg: Kzg;
  before(async () => {
    ckzg.loadTrustedSetup(0);
    kzg = await loadKzg();
  });
  after(() => kzg.dispose());

  it('ships c-kzg\'s trusted_setup.txt byte for byte (SHA-256)', () => {
    const theirs = createHash('sha256').update(readFileSync(CKZG_SETUP)).digest('hex');
    assert.equal(createHash('sha256').update(TRUSTED_SETUP_TEXT, 'utf8').digest('hex'), theirs);
  });

  it('sha256 (native here) and its JavaScript fallback = node:crypto (padding boundaries, challenge- and transcript-sized inputs, offset views)', () => {
    assert.ok(sha256IsNative, 'Node 20.16+ offers node:crypto through process.getBuiltinModule');
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 131_136, 131_152, 270_424]) {
      const backing = Uint8Array.from({ length: n + 3 }, (_, i) => (i * 131 + n) & 0xff);
      const data = backing.subarray(3);
      const want = createHash('sha256').update(data).digest('hex');
      for (const [name, f] of [['sha256', sha256], ['sha256Js', sha256Js]] as const) {
        const got = f(data);
        assert.ok(got instanceof Uint8Array && !Buffer.isBuffer(got) && got.length === 32, `${name}: a plain 32-byte Uint8Array`);
        assert.equal(hex(got), want, `${name}, ${n} bytes`);
      }
    }
  });

  it('sha256All (Web Crypto here; the synchronous hash without it or when its digest rejects) = node:crypto, in order, on offset views', async () => {
    const inputs = [0, 55, 64, 131_152].map((n) => Uint8Array.from({ length: n + 5 }, (_, i) => (i * 31 + n) & 0xff).subarray(5));
    const got = await sha256All(inputs);
    assert.equal(got.length, inputs.length);
    got.forEach((d, i) => assert.equal(hex(d), createHash('sha256').update(inputs[i]).digest('hex'), `input ${i}`));
    // no Web Crypto, and a digest that rejects: the synchronous hash instead
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    try {
      for (const stub of [undefined, { subtle: { digest: () => Promise.reject(new Error('refused')) } }]) {
        Object.defineProperty(globalThis, 'crypto', { value: stub, configurable: true, writable: true });
        const again = await sha256All(inputs);
        again.forEach((d, i) => assert.equal(hex(d), createHash('sha256').update(inputs[i]).digest('hex'), `input ${i}, crypto ${stub ? 'refusing' : 'absent'}`));
      }
    } finally {
      if (saved) Object.defineProperty(globalThis, 'crypto', saved);
    }
    assert.ok(globalThis.crypto?.subtle, 'Web Crypto restored');
  });

  it('commitments, blob proofs and KZG proofs (z outside, inside the domain, 0, 1) = c-kzg', async () => {
    const inDomain = fr.toBytesBE(fr.roots()[2 * fr.reverseBits(77, 12)]);
    const outside = fr.toBytesBE(0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn);
    const zs = [outside, inDomain, new Uint8Array(32), fr.toBytesBE(1n)];
    for (const [name, blob] of kzgBlobs()) {
      const commitment = await kzg.blobToKzgCommitment(blob);
      assert.equal(hex(commitment), hex(ckzg.blobToKzgCommitment(blob)), `${name}: commitment`);
      assert.equal(hex(await kzg.computeBlobKzgProof(blob, commitment)), hex(ckzg.computeBlobKzgProof(blob, commitment)), `${name}: blob proof`);
      // every z on two blobs, one z on the others (each proof is an MSM)
      for (const z of name.startsWith('random') || name === 'low-degree' ? zs : [zs[Number(name.length % 2)]]) {
        const [proof, y] = await kzg.computeKzgProof(blob, z);
        const [proof2, y2] = ckzg.computeKzgProof(blob, z);
        assert.equal(hex(y), hex(y2), `${name} z = ${hex(z)}: y`);
        assert.equal(hex(proof), hex(proof2), `${name} z = ${hex(z)}: proof`);
      }
    }
  });

  it('a field element ≥ r: ScalarEncodingError with its index; later calls unaffected', async () => {
    const good = kzgBlobs()[5][1];
    const expected = hex(ckzg.blobToKzgCommitment(good));
    for (const [at, v] of [[0, fr.R], [17, fr.R + 1n], [4095, (1n << 256n) - 1n]] as const) {
      const bad = good.slice();
      fr.toBytesBE(v, bad, 32 * at);
      for (const call of [() => kzg.blobToKzgCommitment(bad), () => kzg.computeBlobKzgProof(bad, new Uint8Array(48).fill(0).fill(0xc0, 0, 1)), () => kzg.computeCells(bad), () => kzg.computeCellsAndKzgProofs(bad)]) {
        await assert.rejects(call(), (e) => e instanceof ScalarEncodingError && e.index === at && e.message.includes(`element ${at}`), `${at}`);
      }
      assert.throws(() => ckzg.blobToKzgCommitment(bad));
    }
    assert.equal(hex(await kzg.blobToKzgCommitment(good)), expected);
    await assert.rejects(kzg.computeKzgProof(good, fr.toBytesBE(fr.R)), ScalarEncodingError);
    await assert.rejects(kzg.blobToKzgCommitment(good.subarray(32)), LengthMismatchError);
    await assert.rejects(kzg.computeKzgProof(good, new Uint8Array(31)), LengthMismatchError);
  });

  it('computeBlobKzgProof checks the commitment as c-kzg does (a G1 point or infinity)', async () => {
    const blob = kzgBlobs()[5][1];
    const notOnCurve = new Uint8Array(48);
    notOnCurve[0] = 0x80;
    notOnCurve[47] = 5; // x = 5: a curve point outside G1 → NotInSubgroupError (c-kzg: C_KZG_BADARGS)
    const infinity = new Uint8Array(48);
    infinity[0] = 0xc0;
    await assert.rejects(kzg.computeBlobKzgProof(blob, notOnCurve), (e) => e instanceof PointEncodingError || e instanceof NotOnCurveError || e instanceof NotInSubgroupError);
    assert.throws(() => ckzg.computeBlobKzgProof(blob, notOnCurve));
    assert.equal(hex(await kzg.computeBlobKzgProof(blob, infinity)), hex(ckzg.computeBlobKzgProof(blob, infinity)));
  });

  it('two threads: the same bytes', async () => {
    await startThreads(2);
    try {
      const two = await loadKzg({ threads: 2, tables: false });
      try {
        for (const [name, blob] of kzgBlobs().slice(5, 7)) assert.equal(hex(await two.blobToKzgCommitment(blob)), hex(ckzg.blobToKzgCommitment(blob)), name);
      } finally {
        two.dispose();
      }
    } finally {
      stopThreads();
    }
  });

  it('a malformed setup: TrustedSetupError', async () => {
    await assert.rejects(loadKzg({ setup: '4096 65 abcd' }), TrustedSetupError);
    await assert.rejects(loadKzg({ setup: TRUSTED_SETUP_TEXT.replace(/^4096/, '4095') }), TrustedSetupError);
    // Lagrange point 1's compressed x changed: no longer a curve point, or not in G1
    const lines = TRUSTED_SETUP_TEXT.split('\n');
    lines[3] = lines[3].slice(0, 90) + (lines[3].slice(90) === '000000' ? '000001' : '000000');
    await assert.rejects(loadKzg({ setup: lines.join('\n') }), (e) => e instanceof TrustedSetupError && e.index === 1);
  });
});
