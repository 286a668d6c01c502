/** Assembles generated WAT to a Wasm binary with wabt (build/test time only). */
import wabtInit from 'wabt';

let wabtPromise: ReturnType<typeof wabtInit> | undefined;

export interface AssembleOptions {
  threads?: boolean;
  simd?: boolean;
}

export async function assembleWat(name: string, wat: string, options: AssembleOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  wabtPromise ??= wabtInit();
  const wabt = await wabtPromise;
  const features = { threads: options.threads ?? false, simd: options.simd ?? false, mutable_globals: true, bulk_memory: true };
  // pass UTF-8 bytes: given a string, wabt truncates each UTF-16 unit to a byte (U+230A would become a newline)
  const module = wabt.parseWat(name, new TextEncoder().encode(wat), features);
  try {
    (module.validate as (f?: object) => void)(features); // the typings omit validate's features argument
    return new Uint8Array(module.toBinary({ log: false, write_debug_names: true }).buffer);
  } finally {
    module.destroy();
  }
}
