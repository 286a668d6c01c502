// The page of test/browser/groth16.browser.test.ts: `pippin/snarkjs` imported by its package name, as
// a bundle user does (the test bundles this file with esbuild). The keys and witnesses are served
// beside the page; results travel as snarkjs's JSON (proofs, public signals).
import { groth16, FileFormatError } from 'pippin/snarkjs';
import { startThreads, threads } from 'pippin';

const THREADS = 2;

async function bytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

/** A witness with its last value (a private signal of the test circuits) changed by one bit. */
function wrongWitness(wtns) {
  const bad = wtns.slice();
  bad[bad.length - 32] ^= 1;
  return bad;
}

/**
 * For the fixture served under `dir/` (groth16.zkey, witness.wtns): proofs by URL (a string and a
 * URL object: fetched by pippin), by bytes, through a loaded key, and one of a wrong witness; all on
 * pippin's worker pool of THREADS workers.
 * @param {{ dir: string }} args
 */
window.runGroth16 = async ({ dir }) => {
  const state = await startThreads(THREADS);
  const zkeyUrl = new URL(`${dir}/groth16.zkey`, location.href);
  const wtnsUrl = new URL(`${dir}/witness.wtns`, location.href);
  const opts = { threads: THREADS };
  const stats = [];
  const t0 = performance.now();
  const byUrl = await groth16.prove(zkeyUrl.href, wtnsUrl.href, { ...opts, onStats: (s) => stats.push(s) });
  const byUrlObject = await groth16.prove(zkeyUrl, wtnsUrl, opts);
  const [zkey, wtns] = await Promise.all([bytes(zkeyUrl), bytes(wtnsUrl)]);
  const byBytes = await groth16.prove(zkey, wtns, opts);
  const key = await groth16.loadKey(zkey);
  const [byKey, wrong] = await Promise.all([key.prove(wtns, opts), key.prove(wrongWitness(wtns), opts)]);
  key.dispose();
  const ms = performance.now() - t0;
  // a URL that is not there: an error, not a proof
  let missing;
  try {
    await groth16.prove(new URL(`${dir}/no-such.zkey`, location.href).href, wtns, opts);
    missing = { threw: false };
  } catch (e) {
    missing = { threw: true, name: e?.name, message: String(e?.message), fileFormat: e instanceof FileFormatError };
  }
  return {
    proofs: { byUrl, byUrlObject, byBytes, byKey },
    wrong,
    missing,
    stats,
    ms,
    crossOriginIsolated: globalThis.crossOriginIsolated,
    threadsActive: threads.active,
    threadsCount: threads.count,
    threadsReason: threads.reason,
    startedCount: state.count,
  };
};
window.groth16PageReady = true;
