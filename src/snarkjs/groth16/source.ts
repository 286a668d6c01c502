/**
 * Where the Groth16 prover's files come from (`.zkey`, `.wtns`, the circuit's `.wasm`), taken at the
 * call: bytes are copied before the call returns its promise; paths and URLs are read afterwards.
 */
import { LengthMismatchError } from '../../errors.js';
import { describeValue } from '../../api/option-kit.js';

/**
 * Where a `.zkey` or `.wtns` comes from: its bytes (`Uint8Array`, `ArrayBuffer`; copied at the
 * call), snarkjs's in-memory file `{ type: 'mem', data }`, a file path (Node, Bun, Deno) or a URL
 * (fetched; `file:` URLs read from disk where a file system is).
 *
 * @example
 * ```ts
 * import type { FileSource } from 'pippin/snarkjs';
 * const sources: FileSource[] = [new Uint8Array(4), { type: 'mem', data: new Uint8Array(4) }, 'circuit.zkey', new URL('https://example.org/circuit.zkey')];
 * console.log(sources.length); // → 4
 * ```
 */
export type FileSource =
  | Uint8Array
  | ArrayBuffer
  | string
  | URL
  | {
      /** snarkjs's in-memory file */
      type: 'mem';
      /** the file's bytes */
      data: Uint8Array;
    };

/** The bytes of a source given as bytes, copied now; undefined for paths and URLs (read later). */
export function bytesNow(src: unknown, what: string): Uint8Array | undefined {
  if (src instanceof Uint8Array) return new Uint8Array(src);
  if (src instanceof ArrayBuffer) return new Uint8Array(src.slice(0));
  if (typeof src === 'object' && src !== null && (src as { type?: unknown }).type === 'mem') {
    const data = (src as { data?: unknown }).data;
    if (data instanceof Uint8Array) return new Uint8Array(data);
    throw new LengthMismatchError(`groth16: ${what} { type: 'mem' } has no data bytes, got ${describeValue(data)}`);
  }
  if (typeof src === 'string' || src instanceof URL) return undefined;
  throw new LengthMismatchError(`groth16: ${what} must be bytes, { type: 'mem', data }, a path or a URL, got ${describeValue(src)}`);
}

/** The bytes of a path or URL. */
async function readSource(src: string | URL): Promise<Uint8Array> {
  const isUrl = src instanceof URL || /^[a-z][a-z0-9+.-]*:\/\//i.test(src);
  const url = isUrl ? new URL(src) : undefined;
  if (!url || url.protocol === 'file:') {
    // a file system where there is one (Node, Bun, Deno); the specifier is hidden from bundlers
    const specifier = 'node:fs/promises';
    const fs = (await import(/* webpackIgnore: true */ /* @vite-ignore */ specifier)) as typeof import('node:fs/promises');
    return new Uint8Array(await fs.readFile(url ?? (src as string)));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`groth16: fetching ${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** A source's bytes: taken now when given as bytes, else read. */
export function take(src: unknown, what: string): () => Promise<Uint8Array> {
  const now = bytesNow(src, what);
  return now ? () => Promise.resolve(now) : () => readSource(src as string | URL);
}

