/**
 * Circuits, keys and witnesses for the snarkjs engine's tests and benchmark, built offline and kept
 * under .cache/snarkjs/ (rebuilt only when missing):
 *   circuit (test/fixtures/snarkjs/*.circom) → circom2 (the npm package's Wasm build of circom,
 *   circomlib from node_modules) → r1cs + witness wasm; a local powers of tau (one contribution,
 *   phase 2 prepared) of the power the circuit needs; Groth16 / PLONK keys by snarkjs; the witness.
 *
 *   tsx scripts/snarkjs-fixtures.ts [--clean] [--keygen] [name…]   builds the named fixtures (default: the test set)
 *   (--keygen, or a spec's `keygen: true`: Groth16 keys by scripts/groth16-keygen.ts, no powers of tau)
 *
 * The keys are for tests only (one known contribution: not a ceremony).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as snarkjs from 'snarkjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CACHE = join(ROOT, '.cache', 'snarkjs');
const SOURCES = join(ROOT, 'test', 'fixtures', 'snarkjs');
const require = createRequire(import.meta.url);

export type Prime = 'bn128' | 'bls12381';
export type Protocol = 'groth16' | 'plonk';

export interface FixtureSpec {
  /** file name under .cache/snarkjs/ */
  name: string;
  /** the template file in test/fixtures/snarkjs and the main component it instantiates */
  source: string;
  main: string;
  prime: Prime;
  protocols: readonly Protocol[];
  input: Record<string, string | string[]>;
  /**
   * Groth16 key from scripts/groth16-keygen.ts (known toxic waste, no powers of tau needed; files
   * groth16-keygen.zkey and groth16-keygen.vkey.json beside the others) instead of snarkjs's setup.
   * PLONK keys still come from a powers of tau.
   */
  keygen?: boolean;
}

export interface Fixture {
  spec: FixtureSpec;
  r1cs: string;
  wasm: string;
  wtns: string;
  constraints: number;
  zkey: Partial<Record<Protocol, string>>;
  vkey: Partial<Record<Protocol, unknown>>;
}

const BITS_INPUT = { a: String((1n << 249n) / 3n + 12345n), b: '11' };

/**
 * The test circuits: 250 bits and one Poseidon hash on BN254 (≈ 500 constraints, Groth16 and PLONK),
 * the bits alone on BLS12-381 (≈ 250 constraints: its powers of tau cost most to make).
 */
export const TEST_FIXTURES: readonly FixtureSpec[] = [
  { name: 'poseidon_bits-bn128', source: 'poseidon_bits.circom', main: 'component main { public [b] } = PoseidonBits(1);', prime: 'bn128', protocols: ['groth16', 'plonk'], input: BITS_INPUT },
  { name: 'poseidon_bits-bls12381', source: 'poseidon_bits.circom', main: 'component main { public [b] } = PoseidonBits(0);', prime: 'bls12381', protocols: ['groth16'], input: BITS_INPUT },
];

/** A Poseidon chain of `hashes` hashes (517 constraints each with circomlib 2.0.5's Poseidon(2)). */
export function poseidonChain(hashes: number, protocols: readonly Protocol[], prime: Prime = 'bn128'): FixtureSpec {
  return { name: `poseidon_chain${hashes}-${prime}`, source: 'poseidon_chain.circom', main: `component main { public [b] } = PoseidonChain(${hashes});`, prime, protocols, input: { a: '3', b: '5' } };
}

/** circomlib's SHA-256 of one block (31.3k constraints, a witness of bits). */
export function sha256Block(protocols: readonly Protocol[]): FixtureSpec {
  const bits = Array.from({ length: 440 }, (_, i) => String((i * 7 + (i >> 3)) % 3 === 0 ? 1 : 0));
  return { name: 'sha256_block-bn128', source: 'sha256_block.circom', main: '', prime: 'bn128', protocols, input: { in: bits } };
}

/** A spec whose Groth16 key comes from scripts/groth16-keygen.ts (no powers of tau), e.g. `withKeygen(sha256Block(['groth16']))`. */
export function withKeygen(spec: FixtureSpec): FixtureSpec {
  return { ...spec, keygen: true };
}

/**
 * The benchmark's circuits (bench:snarkjs): Poseidon chains of ≈ 2^12, 2^14 and 2^15 constraints
 * (4.1k, 16.0k, 32.6k; Groth16, and PLONK on the smallest) and SHA-256 of one block (31.3k). All fit
 * a 2^15 powers of tau (its preparation takes ≈ 40 min on 2 busy cores; it is made once).
 */
export const BENCH_FIXTURES: readonly FixtureSpec[] = [poseidonChain(8, ['groth16', 'plonk']), poseidonChain(31, ['groth16']), poseidonChain(63, ['groth16']), sha256Block(['groth16'])];

const log = (msg: string) => process.stderr.write(`snarkjs-fixtures: ${msg}\n`);

/** Writes `path` through a temporary name, so an interrupted build leaves nothing half-written. */
async function atomically(path: string, make: (tmp: string) => Promise<unknown>): Promise<void> {
  if (existsSync(path)) return;
  const tmp = `${path}.tmp${process.pid}`;
  try {
    await make(tmp);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

function compile(spec: FixtureSpec, dir: string): void {
  let circuit = join(SOURCES, spec.source);
  if (spec.main) {
    circuit = join(dir, 'main.circom');
    writeFileSync(circuit, `pragma circom 2.0.0;\ninclude "${spec.source}";\n${spec.main}\n`);
  }
  log(`compiling ${spec.name} (circom2, --prime ${spec.prime})`);
  const cli = require.resolve('circom2/cli.js');
  // circom2 runs under WASI with the working directory as its root: paths relative to ROOT
  const rel = (p: string) => relative(ROOT, p);
  execFileSync(process.execPath, [cli, rel(circuit), '--r1cs', '--wasm', '--prime', spec.prime, '-l', rel(SOURCES), '-l', 'node_modules', '-o', rel(dir)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * A phase-2-prepared powers of tau of at least `power` for `prime`: the smallest one cached (a larger
 * ceremony serves smaller circuits: snarkjs reads the Lagrange section of the circuit's size), else
 * one of `power`, made and cached.
 */
async function ptau(prime: Prime, power: number): Promise<string> {
  const dir = join(CACHE, 'ptau');
  mkdirSync(dir, { recursive: true });
  for (let p = power; p <= 20; p++) {
    const have = join(dir, `${prime}_${p}.ptau`);
    if (existsSync(have)) return have;
  }
  const final = join(dir, `${prime}_${power}.ptau`);
  await atomically(final, async (tmp) => {
    log(`powers of tau ${prime} 2^${power}`);
    const curve = await snarkjs.curves.getCurveFromName(prime);
    const p0 = `${tmp}.0`;
    const p1 = `${tmp}.1`;
    await snarkjs.powersOfTau.newAccumulator(curve, power, p0);
    await snarkjs.powersOfTau.contribute(p0, p1, 'pippin tests', `pippin-${prime}-${power}`);
    await snarkjs.powersOfTau.preparePhase2(p1, tmp);
    rmSync(p0);
    rmSync(p1);
  });
  return final;
}

export async function buildFixture(spec: FixtureSpec): Promise<Fixture> {
  const dir = join(CACHE, spec.name);
  mkdirSync(dir, { recursive: true });
  const base = spec.main ? 'main' : spec.source.replace(/\.circom$/, '');
  const r1cs = join(dir, `${base}.r1cs`);
  const wasm = join(dir, `${base}_js`, `${base}.wasm`);
  if (!existsSync(r1cs) || !existsSync(wasm)) compile(spec, dir);
  const info = await snarkjs.r1cs.info(r1cs) as { nConstraints: number; nPubInputs: number; nOutputs: number };
  const wtns = join(dir, 'witness.wtns');
  await atomically(wtns, (tmp) => snarkjs.wtns.calculate(spec.input, wasm, tmp));
  const zkey: Fixture['zkey'] = {};
  const vkey: Fixture['vkey'] = {};
  // Groth16 needs 2^power ≥ constraints + public inputs; PLONK's gate count is larger: grow until it
  // fits, PLONK first so that Groth16 reuses its ceremony (making one costs more than the keys)
  let power = Math.max(8, Math.ceil(Math.log2(info.nConstraints + info.nPubInputs + info.nOutputs + 1)));
  for (const protocol of [...spec.protocols].sort().reverse()) {
    if (protocol === 'groth16' && spec.keygen) {
      const { keygenFixture } = await import('./groth16-keygen.js');
      const made = await keygenFixture(r1cs, dir);
      zkey.groth16 = made.zkey;
      vkey.groth16 = made.vkey;
      continue;
    }
    const file = join(dir, `${protocol}.zkey`);
    for (;;) {
      const tau = await ptau(spec.prime, power);
      try {
        await atomically(file, async (tmp) => {
          log(`${protocol} key for ${spec.name} (ptau 2^${power})`);
          const r = protocol === 'groth16' ? await snarkjs.zKey.newZKey(r1cs, tau, tmp) : await snarkjs.plonk.setup(r1cs, tau, tmp);
          // snarkjs returns -1 (after logging) when the circuit is too big for the ceremony
          if (r === -1 || !existsSync(tmp)) throw new Error(`circuit too big for 2^${power} (${protocol} setup of ${spec.name})`);
        });
        break;
      } catch (e) {
        if (!/too big/i.test(String((e as Error)?.message)) || power >= 20) throw e;
        power++;
      }
    }
    zkey[protocol] = file;
    const vk = join(dir, `${protocol}.vkey.json`);
    await atomically(vk, async (tmp) => writeFileSync(tmp, JSON.stringify(await snarkjs.zKey.exportVerificationKey(file))));
    vkey[protocol] = JSON.parse(readFileSync(vk, 'utf8'));
  }
  return { spec, r1cs, wasm, wtns, constraints: info.nConstraints, zkey, vkey };
}

/** Ends ffjavascript's worker threads (the process otherwise stays alive). */
export async function terminateCurves(): Promise<void> {
  const g = globalThis as { curve_bn128?: { terminate(): Promise<void> } | null; curve_bls12381?: { terminate(): Promise<void> } | null };
  await g.curve_bn128?.terminate();
  await g.curve_bls12381?.terminate();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--clean')) rmSync(CACHE, { recursive: true, force: true });
  const named = args.filter((a) => !a.startsWith('--'));
  const all = [...TEST_FIXTURES, ...BENCH_FIXTURES];
  const keygen = args.includes('--keygen'); // Groth16 keys by scripts/groth16-keygen.ts (no powers of tau)
  const chosen = (named.length ? all.filter((s) => named.includes(s.name)) : TEST_FIXTURES).map((s) => (keygen ? withKeygen(s) : s));
  for (const spec of chosen) {
    const f = await buildFixture(spec);
    log(`${spec.name}: ${f.constraints} constraints, ${Object.keys(f.zkey).join(' + ')}`);
  }
  await terminateCurves();
}
