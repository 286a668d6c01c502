/**
 * Where pippin/kzg's verifiers spend their time (issue #34): verifyBlobKzgProof and verifyCellKzgProofBatch
 * (the 128 cells of one blob) on `kzg.sync`, one thread, with the verifier's steps timed by wrapping its
 * methods: `decode` and `decodeInto` (compressed G1 points: square root, and the subgroup check),
 * `fr.fromBytesBERaw` (the blob's and the cells' field elements, unconverted), `evaluate` (p(z) by
 * folding), `msm` and `msmZcash` (pippin's MSM on the calling thread: C − y·G + z·π, the cells' sums),
 * `interpolant` (the cells' interpolation polynomial: column sums, inverse FFTs of 64, shifts) and
 * `check` (the 2-pair pairing check on prepared
 * G2 points: Miller loop and final exponentiation); the rest — Fiat–Shamir transcripts and their SHA-256,
 * bigint F_r arithmetic, copies — is the total minus those. SHA-256 of the two transcripts' sizes is
 * timed alone too. Wall time (process CPU time would count V8's compiler and GC threads too); medians
 * over --runs calls after two warm-up calls, the rest as the median of each call's own remainder;
 * inputs made by c-kzg.
 *
 *   npm run bench:kzg-verify-phases -- [--runs 15]
 */
import { createRequire } from 'node:module';
import { intFlag, parseFlags, runCli } from '../src/cli-args.js';
import { loadKzg } from '../src/kzg/index.js';
import { KzgVerifier } from '../src/kzg/verify.js';
import { sha256 } from '../src/kzg/sha256.js';
import { FrWasm } from '../src/kzg/fr-wasm.js';
import { randomBlob } from '../examples/kzg-4844/blobs.js';

const USAGE = 'usage: npm run bench:kzg-verify-phases -- [--runs 15]';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const now = () => performance.now();

runCli('bench:kzg-verify-phases', USAGE, async () => {
  const { values } = parseFlags(process.argv.slice(2), { runs: { type: 'string' } });
  const runs = intFlag('runs', values.runs, 15, 1, 1000);
  const ckzg = createRequire(import.meta.url)('c-kzg') as typeof import('c-kzg');
  ckzg.loadTrustedSetup(0);
  const kzg = await loadKzg({ threads: 1 });
  const spent = new Map<string, number>();
  const wrap = (proto: Record<string, unknown>, method: string, label: (args: unknown[]) => string) => {
    const f = proto[method] as (...a: unknown[]) => unknown;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      const t = now();
      try {
        return f.apply(this, args);
      } finally {
        const k = label(args);
        spent.set(k, (spent.get(k) ?? 0) + now() - t);
      }
    };
  };
  const V = KzgVerifier.prototype as unknown as Record<string, unknown>;
  wrap(V, 'decode', (a) => `decode, ${a[1]} point${a[1] === 1 ? '' : 's'} a call`);
  wrap(V, 'decodeInto', (a) => `decode, ${(a[0] as unknown[]).length} point${(a[0] as unknown[]).length === 1 ? '' : 's'} a call (→ zcash bytes)`);
  wrap(V, 'msm', (a) => `msm of ${(a[0] as unknown[]).length} points`);
  wrap(V, 'msmZcash', (a) => `msm of ${(a[0] as Uint8Array).length / 96} points`);
  for (const m of ['evaluate', 'interpolant', 'check']) wrap(V, m, () => m);
  wrap(FrWasm.prototype as unknown as Record<string, unknown>, 'fromBytesBE', (a) => `fr.fromBytesBE ×${a[2]}`);
  wrap(FrWasm.prototype as unknown as Record<string, unknown>, 'fromBytesBERaw', (a) => `fr.fromBytesBERaw ×${a[2]}`);

  const blob = randomBlob(3401), C = ckzg.blobToKzgCommitment(blob), proof = ckzg.computeBlobKzgProof(blob, C);
  const [cells, cellProofs] = ckzg.computeCellsAndKzgProofs(blob);
  const all = [...Array(128).keys()];
  const tasks: [string, () => boolean][] = [
    ['verifyBlobKzgProof', () => kzg.sync.verifyBlobKzgProof(blob, C, proof)],
    ['verifyCellKzgProofBatch, 128 cells', () => kzg.sync.verifyCellKzgProofBatch(all.map(() => C), all, cells, cellProofs)],
  ];
  for (const [name, f] of tasks) {
    f();
    f();
    const total: number[] = [];
    const parts = new Map<string, number[]>();
    for (let r = 0; r < runs; r++) {
      spent.clear();
      const t = now();
      if (!f()) throw new Error(`${name}: false on valid inputs`);
      total.push(now() - t);
      for (const [k, v] of spent) parts.set(k, [...(parts.get(k) ?? []), v]);
    }
    console.log(`${name}: ${median(total).toFixed(2)} ms (median of ${runs})`);
    for (const [k, v] of parts) console.log(`  ${k}: ${median(v).toFixed(3)} ms`);
    const rest = total.map((t, r) => t - [...parts.values()].reduce((s, v) => s + v[r]!, 0));
    console.log(`  rest (transcripts, SHA-256, bigint F_r, copies): ${median(rest).toFixed(3)} ms`);
  }
  for (const [what, n] of [['blob challenge input', 32 + 131072 + 48], ['128-cell transcript', 40 + 48 + 128 * (16 + 2048 + 48)]] as const) {
    const d = new Uint8Array(n);
    sha256(d);
    const ts: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = now();
      sha256(d);
      ts.push(now() - t);
    }
    console.log(`SHA-256 of the ${what} (${n} bytes): ${median(ts).toFixed(3)} ms`);
  }
  kzg.dispose();
});
