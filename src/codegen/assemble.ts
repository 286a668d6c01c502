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
  const module = wabt.parseWat(name, wat, features);
  try {
    module.validate();
    return new Uint8Array(module.toBinary({ log: false, write_debug_names: true }).buffer);
  } finally {
    module.destroy();
  }
}
