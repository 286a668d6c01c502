/**
 * pippin/evm through the real EVM (@ethereumjs/evm 10.1.3, Prague): every EIP-2537 vector
 * (test/fixtures/eip-2537, go-ethereum's G2 MSM set) and go-ethereum's EIP-196/197 vectors as calls
 * to 0x06–0x08 and 0x0b–0x11, each checked for output and gas; failures must burn all the gas. The
 * same inputs through ethereumjs's defaults (NobleBLS, NobleBN254; the MSM vectors up to k = 8,
 * their time grows with k) give the same results. The random differential tests against
 * @noble/curves are in test/evm-differential.test.ts.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createEVM, EVM, NobleBLS, NobleBN254, type EVMBLSInterface, type EVMBN254Interface } from '@ethereumjs/evm';
import { createAddressFromString, hexToBytes, bytesToHex } from '@ethereumjs/util';
import { createEvmBackends } from '../src/evm/index.js';
import { PrecompileInputError } from '../src/errors.js';
import { bn254 as nobleBn254 } from '@noble/curves/bn254.js';

type Fp2 = { c0: bigint; c1: bigint };
/** The slice of @noble/curves' BN254 G2 point class the test uses. */
interface NobleG2 {
  Fp: { fromBigTuple(t: [bigint, bigint]): Fp2; add(a: Fp2, b: Fp2): Fp2; mul(a: Fp2, b: Fp2): Fp2; sqr(a: Fp2): Fp2; sqrt(a: Fp2): Fp2 };
  CURVE(): { b: Fp2 };
  fromAffine(p: { x: Fp2; y: Fp2 }): { assertValidity(): void };
}

interface Vector {
  Input: string;
  Name: string;
  Expected?: string;
  Gas?: number;
  ExpectedError?: string;
}
const load = (path: string): Vector[] => JSON.parse(readFileSync(new URL(`./fixtures/${path}`, import.meta.url), 'utf8'));

/** ethereumjs's createEVM replaces opts.bn254 by NobleBN254 (10.1.3): the EVM is made with its constructor. */
async function makeEvm(bls: EVMBLSInterface, bn254: EVMBN254Interface): Promise<EVM> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Prague });
  const base = await createEVM({ common });
  return new EVM({ common, bls, bn254, stateManager: base.stateManager, blockchain: base.blockchain });
}

const GAS = 30_000_000n;
async function call(evm: EVM, address: number, input: string) {
  const to = createAddressFromString(`0x${address.toString(16).padStart(40, '0')}`);
  const res = await evm.runCall({ to, data: hexToBytes(`0x${input}`), gasLimit: GAS });
  return { out: bytesToHex(res.execResult.returnValue).slice(2), gas: res.execResult.executionGasUsed, error: res.execResult.exceptionError };
}

const BLS_FILES: [number, string][] = [
  [0x0b, 'eip-2537/add_G1_bls.json'],
  [0x0c, 'eip-2537/mul_G1_bls.json'],
  [0x0c, 'eip-2537/msm_G1_bls.json'],
  [0x0d, 'eip-2537/add_G2_bls.json'],
  [0x0e, 'eip-2537/mul_G2_bls.json'],
  [0x0e, 'go-ethereum/blsG2MultiExp.json'],
  [0x0f, 'eip-2537/pairing_check_bls.json'],
  [0x10, 'eip-2537/map_fp_to_G1_bls.json'],
  [0x11, 'eip-2537/map_fp2_to_G2_bls.json'],
  [0x06, 'go-ethereum/bn256Add.json'],
  [0x07, 'go-ethereum/bn256ScalarMul.json'],
  [0x08, 'go-ethereum/bn256Pairing.json'],
];
const FAIL_FILES: [number, string][] = [
  [0x0b, 'eip-2537/fail-add_G1_bls.json'],
  [0x0c, 'eip-2537/fail-mul_G1_bls.json'],
  [0x0c, 'eip-2537/fail-msm_G1_bls.json'],
  [0x0d, 'eip-2537/fail-add_G2_bls.json'],
  [0x0e, 'eip-2537/fail-mul_G2_bls.json'],
  [0x0e, 'eip-2537/fail-msm_G2_bls.json'],
  [0x0f, 'eip-2537/fail-pairing_check_bls.json'],
  [0x10, 'eip-2537/fail-map_fp_to_G1_bls.json'],
  [0x11, 'eip-2537/fail-map_fp2_to_G2_bls.json'],
];
/** bytes per pair of the MSM and pairing precompiles (the default backends run k ≤ 8 only). */
const PAIR_BYTES: Record<number, number> = { 0x0c: 160, 0x0e: 288, 0x0f: 384 };

describe('pippin/evm through @ethereumjs/evm', { timeout: 120_000 }, () => {
  let pippin: EVM;
  let defaults: EVM;
  before(async () => {
    const { bls, bn254 } = await createEvmBackends();
    pippin = await makeEvm(bls, bn254);
    defaults = await makeEvm(new NobleBLS(), new NobleBN254());
  });

  for (const [address, file] of BLS_FILES) {
    it(`${file}: output and gas at 0x${address.toString(16).padStart(2, '0')}, pippin and ethereumjs's default`, async () => {
      const vectors = load(file);
      assert.ok(vectors.length > 0);
      for (const v of vectors) {
        const got = await call(pippin, address, v.Input);
        assert.equal(got.error, undefined, `${v.Name}: ${got.error?.error}`);
        assert.equal(got.out, v.Expected, v.Name);
        assert.equal(got.gas, BigInt(v.Gas!), `${v.Name}: gas`);
        if (PAIR_BYTES[address] && v.Input.length / 2 / PAIR_BYTES[address]! > 8) continue;
        const ref = await call(defaults, address, v.Input);
        assert.deepEqual(ref, got, `${v.Name}: ethereumjs's default differs`);
      }
    });
  }
  for (const [address, file] of FAIL_FILES) {
    it(`${file}: every input fails and burns all the gas, pippin and ethereumjs's default`, async () => {
      for (const v of load(file)) {
        for (const evm of [pippin, defaults]) {
          const got = await call(evm, address, v.Input);
          assert.ok(got.error !== undefined, `${v.Name} (${v.ExpectedError}) succeeded`);
          assert.equal(got.gas, GAS, `${v.Name}: all gas burnt`);
        }
      }
    });
  }
  it("every fail-* input, called on pippin's backend directly, throws PrecompileInputError with the EIP's reason", async () => {
    const { bls } = await createEvmBackends();
    const methods: Record<number, [keyof typeof bls, string]> = {
      0x0b: ['addG1', 'BLS12_G1ADD'],
      0x0c: ['msmG1', 'BLS12_G1MSM'],
      0x0d: ['addG2', 'BLS12_G2ADD'],
      0x0e: ['msmG2', 'BLS12_G2MSM'],
      0x0f: ['pairingCheck', 'BLS12_PAIRING_CHECK'],
      0x10: ['mapFPtoG1', 'BLS12_MAP_FP_TO_G1'],
      0x11: ['mapFP2toG2', 'BLS12_MAP_FP2_TO_G2'],
    };
    const reasons = new Set<string>();
    for (const [address, file] of FAIL_FILES) {
      const [method, name] = methods[address]!;
      for (const v of load(file)) {
        const e = (() => {
          try {
            bls[method](hexToBytes(`0x${v.Input}`));
          } catch (err) {
            return err;
          }
        })();
        assert.ok(e instanceof PrecompileInputError, `${file} ${v.Name}: ${String(e)}`);
        assert.equal(e.precompile, name);
        reasons.add(e.reason);
      }
    }
    assert.deepEqual([...reasons].sort(), ['invalid field element', 'invalid input length', 'point not in subgroup', 'point not on curve']);
  });
  it('ecPairing (0x08) refuses a coordinate ≥ p, G1 off its curve, G2 off the twist or outside G2, a bad length; equals NobleBN254 on valid inputs', async () => {
    const { bn254 } = await createEvmBackends();
    const noble = new NobleBN254();
    const valid = load('go-ethereum/bn256Pairing.json').map((v) => hexToBytes(`0x${v.Input}`)).filter((b) => b.length >= 384);
    assert.ok(valid.length > 0);
    const base = valid[0]!;
    const p = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
    const put = (bytes: Uint8Array, off: number, v: bigint) => {
      for (let i = 31; i >= 0; i--, v >>= 8n) bytes[off + i] = Number(v & 0xffn);
    };
    const cases: [string, Uint8Array][] = [];
    const edit = (name: string, f: (b: Uint8Array) => void) => {
      const b = base.slice();
      f(b);
      cases.push([name, b]);
    };
    edit('G1 x = p', (b) => put(b, 0, p));
    edit('G1 off the curve', (b) => (b[63] ^= 1));
    edit('G2 x.c0 = p', (b) => put(b, 96, p));
    edit('G2 off the twist', (b) => (b[191] ^= 1));
    // a point of the twist outside G2 (noble's Fp2 square root and its subgroup check as the oracle)
    const G2 = (nobleBn254 as unknown as { G2: { Point: NobleG2 } }).G2.Point;
    const x = G2.Fp.fromBigTuple([2n, 1n]);
    const y = G2.Fp.sqrt(G2.Fp.add(G2.Fp.mul(G2.Fp.sqr(x), x), G2.CURVE().b));
    assert.throws(() => G2.fromAffine({ x, y }).assertValidity(), 'the point is outside G2');
    edit('G2 on the twist, outside G2', (b) => [x.c1, x.c0, y.c1, y.c0].forEach((v, j) => put(b, 64 + 32 * j, v)));
    cases.push(['bad length', base.subarray(0, 191)]);
    for (const [name, input] of cases) {
      const mine = (() => {
        try {
          return bn254.pairing(input);
        } catch (e) {
          return e;
        }
      })();
      // EIP-197's rules (go-ethereum's): every case is refused
      assert.ok(mine instanceof PrecompileInputError && mine.precompile === 'ECPAIRING', `${name}: pippin refuses (${String(mine)})`);
    }
    for (const input of valid) assert.deepEqual(bn254.pairing(input), noble.pairing(input));
    assert.equal(bn254.pairing(new Uint8Array(0))[31], 1, 'no pairs: 1');
    assert.equal(bn254.pairing(new Uint8Array(192))[31], 1, 'infinity pairs: 1');
  });
  it('the EVM runs the backends it was given (a corrupted backend fails the vectors)', async () => {
    const { bls, bn254 } = await createEvmBackends();
    const flip = (f: (i: Uint8Array) => Uint8Array) => (i: Uint8Array) => {
      const out = f(i);
      out[out.length - 1] ^= 1;
      return out;
    };
    const bad = await makeEvm({ ...bls, addG1: flip((i) => bls.addG1(i)) } as EVMBLSInterface, { ...bn254, add: flip((i) => bn254.add(i)), mul: (i) => bn254.mul(i), pairing: (i) => bn254.pairing(i) });
    for (const [address, file] of [[0x0b, 'eip-2537/add_G1_bls.json'], [0x06, 'go-ethereum/bn256Add.json']] as const) {
      const v = load(file)[0]!;
      assert.notEqual((await call(bad, address, v.Input)).out, v.Expected);
      assert.equal((await call(pippin, address, v.Input)).out, v.Expected);
    }
  });
});
