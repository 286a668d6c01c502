/**
 * The prover side of EIP-4844 and EIP-7594 with pippin/kzg: a blob's commitment, its blob proof
 * and its 128 cells with their cell proofs, each equal byte for byte to c-kzg-4844's (the tests in
 * test/kzg*.test.ts compare them with the c-kzg binding; bench/kzg.ts measures them against c-kzg,
 * kzg-wasm and micro-eth-signer).
 *
 * In a project of your own: `import { loadKzg } from 'pippin/kzg'`.
 *
 *   npx tsx examples/kzg-4844/kzg.ts
 */
import { loadKzg } from '../../src/kzg/index.js';
import { randomBlob } from './blobs.js';

export async function main(): Promise<void> {
  const ms = (t0: number) => `${(performance.now() - t0).toFixed(0)} ms`;
  let t0 = performance.now();
  const kzg = await loadKzg(); // the official setup: decoded, validated, FK20 tables built
  console.log(`setup loaded in ${ms(t0)}; Wasm memory held: ${JSON.stringify(kzg.bytes)}`);
  try {
    const blob = randomBlob(4844);
    t0 = performance.now();
    const commitment = await kzg.blobToKzgCommitment(blob);
    console.log(`commitment ${Buffer.from(commitment).toString('hex').slice(0, 16)}… in ${ms(t0)}`);
    t0 = performance.now();
    const proof = await kzg.computeBlobKzgProof(blob, commitment);
    console.log(`blob proof ${Buffer.from(proof).toString('hex').slice(0, 16)}… in ${ms(t0)}`);
    t0 = performance.now();
    const [cells, proofs] = await kzg.computeCellsAndKzgProofs(blob);
    console.log(`${cells.length} cells and ${proofs.length} cell proofs in ${ms(t0)}`);
  } finally {
    kzg.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
