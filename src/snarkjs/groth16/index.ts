/**
 * `groth16` of pippin/snarkjs: snarkjs's Groth16 prover, whole, on pippin (./prove.ts): keys and
 * witnesses as bytes, file paths (Node), URLs (fetched) or snarkjs's `{ type: 'mem', data }`;
 * proofs and public signals in snarkjs's JSON shapes.
 */
import { optionError, optionValue, takeOptionBag } from '../../api/option-kit.js';
import { rejecting } from '../../msm/call.js';
import { bytesNow, take, type FileSource } from './source.js';
import { loadGroth16Key, LOAD_OPTIONS, PROVE_OPTIONS, proveOptions, loadOptions, type Groth16Progress, type Groth16ProvingKey, type Groth16Result, type Groth16Stats, type LoadKeyOptions } from './prove.js';

/**
 * Options of `groth16.prove`, `loadKey` and `fullProve`; unknown names, wrong types and `null`
 * reject with InvalidOptionError.
 *
 * @example
 * ```ts
 * import type { Groth16Options } from 'pippin/snarkjs';
 * const options: Groth16Options = { threads: 2 };
 * console.log(options.threads); // → 2
 * ```
 */
export interface Groth16Options {
  /** At most this many threads for the H polynomial and the MSMs (default: every worker of pippin's pool). */
  threads?: number;
  /** Called with each proof's phase times (Groth16Stats). */
  onStats?: (stats: Groth16Stats) => void;
  /** Called with the proof's progress (Groth16Progress: work units done of total, the phase). */
  onProgress?: (progress: Groth16Progress) => void;
  /** Cancels: the call rejects with the signal's reason, and none of its work runs after that. */
  signal?: AbortSignal;
  /**
   * Most Wasm memory (bytes, 1 MiB … 4 GiB) the curve may hold for the key and one proof; a call
   * that would need more rejects with InvalidOptionError before its work. Default: Wasm's 4 GiB.
   */
  maxMemoryBytes?: number;
}

/**
 * Options of `groth16.fullProve`: `snarkjs` (the module, for its witness calculator) and those of prove.
 *
 * @example
 * ```ts
 * import * as snarkjs from 'snarkjs';
 * import type { FullProveOptions } from 'pippin/snarkjs';
 * const options: FullProveOptions = { snarkjs, threads: 1 };
 * console.log(typeof options.snarkjs); // → object
 * ```
 */
export interface FullProveOptions extends Groth16Options {
  /** the snarkjs module (`import * as snarkjs from 'snarkjs'`): pippin ships no circom runtime */
  snarkjs: {
    /** snarkjs's witness module */
    wtns: {
      /** computes the witness of `input` with the circuit's `wasm` into `out.data` */
      calculate(input: unknown, wasm: unknown, out: { type: 'mem'; data?: Uint8Array }): Promise<unknown>;
    };
  };
}

/**
 * Groth16 proofs of snarkjs keys, the whole prover on pippin: BN254 (`bn128`) and BLS12-381
 * (`bls12381`) keys from `snarkjs groth16 setup` / `zkey contribute`. Proofs verify with
 * `snarkjs.groth16.verify` and the verifier contracts snarkjs exports; r and s come from
 * `crypto.getRandomValues`. Malformed files reject with FileFormatError (its `code`, `section`,
 * `offset`), a witness of another key with FileFormatError `witness-length` / `witness-prime`.
 *
 * @example
 * ```ts
 * import { groth16, FileFormatError } from 'pippin/snarkjs';
 * // groth16.prove(zkey, wtns) → { proof, publicSignals } as snarkjs.groth16.prove returns them;
 * // const key = await groth16.loadKey(zkey); await key.prove(wtns); key.dispose();
 * const e = await groth16.prove(new Uint8Array(8), new Uint8Array(8)).catch((x: unknown) => x);
 * console.log(e instanceof FileFormatError && e.code); // → magic
 * ```
 */
export const groth16 = Object.freeze({
  /** Loads `zkey`, proves `wtns`, releases the key. */
  prove(zkey: FileSource, wtns: FileSource, options?: Groth16Options): Promise<Groth16Result> {
    return rejecting(() => {
      const opts = proveOptions(takeOptionBag(options, 'groth16.prove', PROVE_OPTIONS));
      const [keyBytes, wtnsBytes] = [take(zkey, 'zkey'), take(wtns, 'wtns')];
      return (async () => {
        const { threads, signal, maxMemoryBytes } = opts;
        const key = await loadGroth16Key(await keyBytes(), { threads, signal, maxMemoryBytes });
        try {
          return await key.prove(await wtnsBytes(), opts);
        } finally {
          key.dispose();
        }
      })();
    });
  },
  /** Loads a key once for many proofs: `key.prove(wtns)`, `key.dispose()`. Options: `threads`, `signal`, `maxMemoryBytes`. */
  loadKey(zkey: FileSource, options?: LoadKeyOptions): Promise<Groth16ProvingKey> {
    return rejecting(() => {
      const opts = loadOptions(takeOptionBag(options, 'groth16.loadKey', LOAD_OPTIONS));
      const bytes = take(zkey, 'zkey');
      return bytes().then((b) => loadGroth16Key(b, opts));
    });
  },
  /** snarkjs's witness calculator (`options.snarkjs.wtns.calculate`) on `input` and the circuit's `wasm`, then prove. */
  fullProve(input: unknown, wasm: FileSource, zkey: FileSource, options: FullProveOptions): Promise<Groth16Result> {
    return rejecting(() => {
      const bag = takeOptionBag(options, 'groth16.fullProve', ['snarkjs', ...PROVE_OPTIONS]);
      const sj = optionValue(bag, 'snarkjs') as FullProveOptions['snarkjs'] | undefined;
      if (typeof sj !== 'object' || sj === null || typeof sj.wtns?.calculate !== 'function') throw optionError(bag, 'snarkjs', sj, 'the snarkjs module (its wtns.calculate makes the witness)');
      const opts = proveOptions(bag);
      const wasmBytes = bytesNow(wasm, 'wasm');
      const circuit = wasmBytes ? { type: 'mem', data: wasmBytes } : wasm instanceof URL ? wasm.href : wasm;
      const keyBytes = take(zkey, 'zkey');
      return (async () => {
        const out: { type: 'mem'; data?: Uint8Array } = { type: 'mem' };
        await sj!.wtns.calculate(input, circuit, out);
        return groth16.prove(await keyBytes(), out.data!, opts);
      })();
    });
  },
});

export type { FileSource } from './source.js';
export type { Groth16Phase, Groth16Progress, Groth16Proof, Groth16Result, Groth16ProvingKey, Groth16Stats, LoadKeyOptions, ProveOptions } from './prove.js';
