/**
 * The oracle of the cross-engine KZG check (./kzg-check.ts, run by ./checks.ts): c-kzg 4.1.0's outputs
 * (native binding, so Node only) for one seeded random blob (examples/kzg-4844/blobs.ts
 * `randomBlob(seed)`), written as JSON. scripts/test-engines.sh runs this first; the file is cached
 * under .cache/ by c-kzg version and seed and made again when missing (a fresh clone), written to a
 * temporary name and renamed so a partial file is never read. ≈ 0.5 s (mostly c-kzg's cells).
 *
 *   node --import tsx test/engines/kzg-fixture.ts [--seed N (default KZG_SEED)]   → prints the fixture's path
 *
 * The fixture holds: the seed and the blob's SHA-256 (the check rebuilds the blob and compares);
 * the commitment; [proof, y] at a z outside the domain and at a z on it (ω₄₀₉₆^brp(77), a blob
 * evaluation point, c-kzg's special case); the blob proof; the 128 cell proofs and each cell's
 * SHA-256 (node:crypto, not pippin's); a bad blob (the element at `bad.index` set to
 * `bad.value` ≥ r), which c-kzg is checked here to reject; and c-kzg's outcome of each verifier case
 * of ./kzg-verify-cases.ts on these outputs, by name.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBlob } from '../../examples/kzg-4844/blobs.js';
import * as fr from '../../src/kzg/fr.js';
import type { KzgExpected } from './kzg-check.js';
import { callArgs, outcomeOf, pointOutsideG1, verifyCases, type VerifyOutcome } from './kzg-verify-cases.js';

/** The fixture's format, part of the cache file's name (a cached file of another format is made again). */
const FORMAT = 2;

/** The blob seed of the cross-engine check (scripts/test-engines.sh and the browser pages use this default). */
export const KZG_SEED = 4844;

const require = createRequire(import.meta.url);
const ckzg = require('c-kzg') as typeof import('c-kzg');
const ckzgVersion = (require('c-kzg/package.json') as { version: string }).version;
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** c-kzg's outputs for `randomBlob(seed)` (see the header). */
export async function makeKzgFixture(seed: number): Promise<KzgExpected> {
  ckzg.loadTrustedSetup(0);
  const blob = randomBlob(seed);
  const zs = [fr.toBytesBE(0x2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091an), fr.toBytesBE(fr.roots()[2 * fr.reverseBits(77, 12)])];
  const commitment = ckzg.blobToKzgCommitment(blob);
  const [cells, cellProofs] = ckzg.computeCellsAndKzgProofs(blob);
  const bad = { index: 2345, value: fr.toBytesBE(fr.R + 3n) };
  const badBlob = blob.slice();
  badBlob.set(bad.value, 32 * bad.index);
  let rejected = '';
  try {
    ckzg.blobToKzgCommitment(badBlob);
  } catch (e) {
    rejected = String(e);
  }
  if (!rejected) throw new Error('kzg-fixture: c-kzg accepted a blob with an element ≥ r');
  // the check recovers these cells and proofs from the odd cells: so does c-kzg
  const odd = cells.map((_, i) => i).filter((i) => i % 2 === 1);
  const [back, backProofs] = ckzg.recoverCellsAndKzgProofs(odd, odd.map((i) => cells[i]));
  if (back.some((c, i) => hex(c) !== hex(cells[i])) || backProofs.some((p, i) => hex(p) !== hex(cellProofs[i]))) throw new Error('kzg-fixture: c-kzg does not recover the cells and proofs from the odd cells');
  const proofs = zs.map((z) => {
    const [proof, y] = ckzg.computeKzgProof(blob, z);
    return { z: hex(z), proof: hex(proof), y: hex(y) };
  });
  const blobProof = hex(ckzg.computeBlobKzgProof(blob, commitment));
  const outputs = { blob: hex(blob), commitment: hex(commitment), proofs, blobProof, cells: cells.map(hex), cellProofs: cellProofs.map(hex) };
  const verify: Record<string, VerifyOutcome> = {};
  for (const c of verifyCases(outputs, await pointOutsideG1())) {
    verify[c.name] = (await outcomeOf(() => (ckzg[c.method] as (...a: unknown[]) => boolean)(...callArgs(c)))) as VerifyOutcome;
  }
  return {
    cKzg: ckzgVersion,
    seed,
    blobSha256: sha(blob),
    commitment: hex(commitment),
    proofs,
    blobProof,
    cellSha256: cells.map(sha),
    cellProofs: cellProofs.map(hex),
    bad: { index: bad.index, value: hex(bad.value), cKzgError: rejected },
    verify,
  };
}

/** The cached fixture's path for `seed`, made first when missing. */
export async function kzgFixturePath(seed = KZG_SEED): Promise<string> {
  const path = join(root, '.cache', 'kzg-engines', `c-kzg-${ckzgVersion}-seed-${seed}-format-${FORMAT}.json`);
  if (existsSync(path)) return path;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(await makeKzgFixture(seed), null, 1)}\n`);
  renameSync(tmp, path);
  return path;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--seed');
  const seed = i >= 0 ? Number(process.argv[i + 1]) : KZG_SEED;
  if (!Number.isSafeInteger(seed)) throw new Error(`kzg-fixture: --seed ${process.argv[i + 1]}: an integer`);
  console.log(await kzgFixturePath(seed));
}
