/**
 * The blobs the KZG checks use (test/kzg-4844.test.ts, scripts/make-kzg-vectors.ts, bench/kzg.ts):
 * edge blobs — all zero, all r − 1, one non-zero element (first, last, in between) — and seeded
 * random blobs, each rebuilt from its name so the committed vectors need not hold 128 KiB blobs.
 */
import { bls12_381 } from '../../src/index.js';
import { makeRng } from '../../src/reference/rng.js';
import { BYTES_PER_BLOB, BYTES_PER_FIELD_ELEMENT, FIELD_ELEMENTS_PER_BLOB } from '../../src/kzg/index.js';
import { reverseBits, roots } from '../../src/kzg/fr.js';

const { r } = bls12_381.params;

/** Field elements as a blob: 32-byte big-endian each. */
export function blobOf(elements: (i: number) => bigint): Uint8Array {
  const blob = new Uint8Array(BYTES_PER_BLOB);
  for (let i = 0; i < FIELD_ELEMENTS_PER_BLOB; i++) {
    let v = elements(i);
    for (let b = BYTES_PER_FIELD_ELEMENT - 1; b >= 0 && v > 0n; b--, v >>= 8n) blob[i * BYTES_PER_FIELD_ELEMENT + b] = Number(v & 0xffn);
  }
  return blob;
}

export function randomBlob(seed: number): Uint8Array {
  const rng = makeRng(seed);
  return blobOf(() => rng.nextBelow(r));
}

/** Named blobs: 'zero', 'r-1', 'one-at-<i>' (element i = 0x1234…, the rest 0), 'random-<seed>'. */
export function namedBlob(name: string): Uint8Array {
  if (name === 'zero') return new Uint8Array(BYTES_PER_BLOB);
  if (name === 'r-1') return blobOf(() => r - 1n);
  const one = /^one-at-(\d+)$/.exec(name);
  if (one) return blobOf((i) => (i === Number(one[1]) ? 0x1234567890abcdef1234567890abcdefn * 0x1000001n : 0n));
  const random = /^random-(\d+)$/.exec(name);
  if (random) return randomBlob(Number(random[1]));
  throw new Error(`unknown blob ${name}`);
}

export const BLOB_NAMES = ['zero', 'r-1', 'one-at-0', 'one-at-1', 'one-at-2049', 'one-at-4095', 'random-1', 'random-2', 'random-3'];

/**
 * The blobs of test/kzg*.test.ts and bench/kzg.ts, by name: all zero, all r − 1, one non-zero
 * element (first, last), small values (element i = i), two random blobs, and the evaluations of
 * the degree-3 polynomial 3 + 5X + 7X² + 11X³ (a blob whose extension and proofs are low-degree).
 */
export function kzgBlobs(): [string, Uint8Array][] {
  const rs = roots();
  const lowDegree = blobOf((i) => {
    const x = rs[2 * reverseBits(i, 12)];
    return (3n + x * (5n + x * (7n + 11n * x))) % r;
  });
  return [
    ['zero', namedBlob('zero')],
    ['r-1', namedBlob('r-1')],
    ['one-at-0', namedBlob('one-at-0')],
    ['one-at-4095', namedBlob('one-at-4095')],
    ['small', blobOf((i) => BigInt(i))],
    ['random-1', randomBlob(1)],
    ['random-2', randomBlob(2)],
    ['low-degree', lowDegree],
  ];
}
