/**
 * One KZG peer of bench:kzg in a process of its own (c-kzg holds one setup per process, so its
 * precompute levels need one each; rust-eth-kzg reads RAYON_NUM_THREADS when its pool starts, so the
 * parent sets it in this process's environment). Started by bench/kzg.ts with an IPC channel:
 * `--peer c-kzg:0 | c-kzg:8 | rust-eth-kzg | rust-eth-kzg:precomp | kzg-wasm | micro-eth-signer`.
 * Loads the peer, reports { ready, name, loadMs }, then answers each request { id, task, args } with
 * { id, value, ms } (ms: the call alone, timed here) or { id, error }.
 */
import { loadCkzg, loadKzgWasm, loadMicroEthSigner, loadRustEthKzg, type PeerKzg } from '../examples/kzg-4844/peers.js';

export const PEER_SPECS = ['c-kzg:0', 'c-kzg:8', 'rust-eth-kzg', 'rust-eth-kzg:precomp', 'kzg-wasm', 'micro-eth-signer'] as const;
export type PeerSpec = (typeof PEER_SPECS)[number];

/** A request of the parent: the peer's method and its arguments (blobs as hex, bytes do not survive IPC as such). */
export type PeerRequest =
  | { id: number; task: 'commit'; args: [string] }
  | { id: number; task: 'blobProof'; args: [string, string] }
  | { id: number; task: 'cellsAndProofs'; args: [string] }
  | { id: number; task: 'recover'; args: [number[], string[]] };

async function load(spec: PeerSpec): Promise<PeerKzg> {
  if (spec.startsWith('c-kzg:')) return loadCkzg(Number(spec.slice(6)));
  if (spec.startsWith('rust-eth-kzg')) return loadRustEthKzg(spec.endsWith(':precomp'));
  return spec === 'kzg-wasm' ? loadKzgWasm() : loadMicroEthSigner();
}

const unhex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));

async function main(): Promise<void> {
  const at = process.argv.indexOf('--peer');
  const spec = process.argv[at + 1] as PeerSpec;
  if (at < 0 || !PEER_SPECS.includes(spec)) throw new Error(`kzg-peer: --peer ${PEER_SPECS.join(' | ')}`);
  const peer = await load(spec);
  process.send!({ ready: true, name: peer.name, loadMs: peer.loadMs });
  process.on('message', (req: PeerRequest) => {
    try {
      const t0 = performance.now();
      let value: unknown;
      if (req.task === 'commit') value = peer.commit(unhex(req.args[0]));
      else if (req.task === 'blobProof') value = peer.blobProof(unhex(req.args[0]), req.args[1]);
      else if (req.task === 'cellsAndProofs') value = peer.cellsAndProofs(unhex(req.args[0]));
      else value = peer.recover(req.args[0], req.args[1]);
      const ms = performance.now() - t0;
      process.send!({ id: req.id, value, ms });
    } catch (e) {
      process.send!({ id: req.id, error: String(e) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.send) await main();
