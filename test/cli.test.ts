/**
 * The CLI as a user runs it (a child process): generated inputs in every byte order and point
 * format asked for, file inputs whose expected sum comes from @noble/curves, and bad command lines,
 * each of which must exit with code 2 and a one-line message naming the flag.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bls12_381 as nobleBls } from '@noble/curves/bls12-381.js';
import { makeRng } from '../src/reference/rng.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (res.error) throw res.error;
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

function assertOk(args: string[]): string {
  const { code, stdout, stderr } = cli('msm', ...args);
  assert.equal(code, 0, `msm ${args.join(' ')}: exit ${code}\n${stdout}${stderr}`);
  assert.match(stdout, /: OK$/m);
  return stdout;
}

describe('pippin msm on generated inputs', () => {
  it('--size 8 (default threads)', () => {
    const out = assertOk(['--size', '8']);
    assert.match(out, /n = 256 points/);
  });
  const generated: [string, string[]][] = [
    ['--scalar-endian be', ['--scalar-endian', 'be', '--size', '6']],
    ['--point-format arkworks (bls12-381)', ['--point-format', 'arkworks', '--size', '6']],
    ['--point-format zcash-compressed with --scalar-endian be', ['--point-format', 'zcash-compressed', '--scalar-endian', 'be', '--size', '5']],
    ['--curve bn254 --point-format arkworks-compressed', ['--curve', 'bn254', '--point-format', 'arkworks-compressed', '--size', '6']],
  ];
  for (const [name, args] of generated) {
    it(name, () => {
      assertOk([...args, '--threads', '1']);
    });
  }
  it('--max-memory below the one-piece size streams the inputs (verified, peak memory and chunks printed)', () => {
    const out = assertOk(['--curve', 'bn254', '--size', '17', '--max-memory', '16', '--validate', 'on-curve', '--threads', '2']);
    assert.match(out, /peak Wasm memory: [\d.]+ MiB .*--max-memory 16 MiB/);
    assert.match(out, /streamed: \d+ chunks of up to \d+ points/);
    // the table's c = 16 at 2^17 keeps 8 × 2^15 buckets for the whole stream: more than 16 MiB, so a narrower window
    assert.ok(Number(/window c = (\d+)/.exec(out)?.[1]) < 16, out.split('\n')[0]);
    const json = JSON.parse(cli('msm', '--size', '10', '--json', '--max-memory', '16', '--no-progress').stdout.trim());
    assert.equal(json.ok, true);
    assert.equal(json.maxMemoryBytes, 16 * 2 ** 20);
  });
  it('--window sets the window width (G1 and G2), verified', () => {
    assert.match(assertOk(['--size', '10', '--threads', '1', '--window', '5']), /window c = 5 \(/);
    assert.match(assertOk(['--size', '8', '--group', 'g2', '--curve', 'bn254', '--threads', '1', '--window', '7']), /window c = 7 \(/);
  });
  it('--size 0 (one point)', () => {
    assert.match(assertOk(['--size', '0', '--threads', '1']), /n = 1 points/);
  });
  it('--explain: per-phase counts add up to the totals, both models and the measurement are printed', () => {
    const { code, stdout, stderr } = cli('msm', '--size', '12', '--explain', '--json', '--validate', 'none');
    assert.equal(code, 0, stderr);
    const out = JSON.parse(stdout);
    assert.equal(out.ok, true);
    assert.equal(out.threads, 1);
    const [acc, red] = out.explain.phases;
    assert.deepEqual([acc.phase, red.phase], ['accumulate', 'reduce']);
    assert.equal(acc.additions + red.additions, out.additions);
    assert.equal(acc.inversions + red.inversions, out.inversions);
    for (const m of [acc, red]) {
      assert.ok(m.additions > 0 && m.fieldModelMs > 0 && m.kernelModelMs > 0 && m.measuredMs > 0, JSON.stringify(m));
      assert.ok(Math.abs(m.meanBatch - m.additions / m.inversions) < 1e-9);
    }
    for (const op of ['mul', 'sqr', 'inv'] as const) assert.ok(out.explain.nsPerOp[op] > 0, op);
    // the same inputs run twice count the same additions: the input generation's batch additions
    // on the same instance are not the first run's
    const twice = JSON.parse(cli('msm', '--size', '12', '--explain', '--json', '--validate', 'none', '--runs', '2').stdout);
    assert.deepEqual(twice.explain.phases.map((m: { additions: number }) => m.additions), [acc.additions, red.additions]);
    // at most one addition per nonzero digit: 2n halves in each window
    assert.ok(acc.additions <= out.plan.windows * 2 * out.n, `${acc.additions} accumulation additions for ${out.plan.windows} windows of ${2 * out.n} halves`);
    const text = assertOk(['--size', '8', '--explain']);
    assert.match(text, /bucket accumulation +\d+ +\d+ .* ms +[\d.]+×/);
    assert.match(text, /bucket reduction +\d+/);
  });
  it('--explain with --threads 2 exits 2 naming both flags', () => {
    const { code, stderr } = cli('msm', '--explain', '--threads', '2');
    assert.equal(code, 2);
    assert.match(stderr, /--explain models one thread: drop --threads 2/);
  });
  it('--json prints one parsable object', () => {
    const { code, stdout } = cli('msm', '--curve', 'pallas', '--size', '5', '--runs', '2', '--seed', '7', '--threads', '1', '--json');
    assert.equal(code, 0);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1);
    const j = JSON.parse(lines[0]);
    assert.equal(j.curve, 'pallas');
    assert.equal(j.n, 32);
    assert.equal(j.ok, true);
    assert.equal(j.timesMs.length, 2);
    assert.equal(j.validate, 'full');
    assert.equal(typeof j.medianMs, 'number');
    assert.equal(typeof j.plan.c, 'number');
  });
  it('--help prints the usage and exits 0', () => {
    const { code, stdout } = cli('msm', '--help');
    assert.equal(code, 0);
    assert.match(stdout, /^usage: pippin msm/);
  });
});

describe('pippin msm on BLS12-381 files (expected sum from noble)', () => {
  const P = nobleBls.G1.Point;
  const r = P.Fn.ORDER;
  const p = P.Fp.ORDER;
  const n = 12;
  const rng = makeRng(99);
  const pts = Array.from({ length: n }, (_, i) => (i === 3 ? P.ZERO : P.BASE.multiply((rng.nextBigint(255) % (r - 1n)) + 1n)));
  // full 256-bit scalars: the CLI reduces them mod r as the library does
  const sc = Array.from({ length: n }, () => rng.nextBigint(256));
  const want = pts.reduce((acc, Q, i) => (sc[i] % r === 0n ? acc : acc.add(Q.multiply(sc[i] % r))), P.ZERO).toAffine();
  const le = (v: bigint, len: number) => Uint8Array.from({ length: len }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
  const cat = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((x) => [...x]));
  const arkworks = (Q: InstanceType<typeof P>) => {
    if (Q.is0()) return Uint8Array.from({ length: 96 }, (_, i) => (i === 95 ? 0x40 : 0));
    const { x, y } = Q.toAffine();
    const out = cat([le(x, 48), le(y, 48)]);
    if (y > (p - 1n) / 2n) out[95] |= 0x80;
    return out;
  };
  let dir: string;
  const file = (name: string, bytes: Uint8Array) => {
    const f = join(dir, name);
    writeFileSync(f, bytes);
    return f;
  };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pippin-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: [string, Uint8Array, string[]][] = [
    ['zcash (default by size)', cat(pts.map((Q) => Q.toBytes(false))), []],
    ['zcash-compressed (default by size)', cat(pts.map((Q) => Q.toBytes(true))), []],
    ['arkworks', cat(pts.map(arkworks)), ['--point-format', 'arkworks']],
  ];
  for (const [name, bytes, extra] of cases) {
    for (const endian of ['le', 'be'] as const) {
      it(`${name}, scalars ${endian}`, () => {
        const scalars = cat(sc.map((s) => (endian === 'le' ? le(s, 32) : le(s, 32).reverse())));
        const out = assertOk(['--points', file('p.bin', bytes), '--scalars', file('s.bin', scalars), '--scalar-endian', endian, '--threads', '1', ...extra]);
        const m = /result: x = 0x([0-9a-f]+)\n\s+y = 0x([0-9a-f]+)/.exec(out);
        assert.ok(m, out);
        assert.equal(BigInt('0x' + m[1]), want.x);
        assert.equal(BigInt('0x' + m[2]), want.y);
      });
    }
  }
  it('a points file of the wrong size is a usage error', () => {
    const { code, stderr } = cli('msm', '--points', file('p.bin', new Uint8Array(95)), '--scalars', file('s.bin', new Uint8Array(32)));
    assert.equal(code, 2);
    assert.match(stderr, /--points: 95 bytes/);
  });
});

describe('pippin msm: bad command lines exit 2 naming the flag', () => {
  const bad: [string[], RegExp][] = [
    [['--runs', 'abc'], /--runs: 'abc'.*1…1000/],
    [['--size', '4.5'], /--size: '4\.5'.*0…24/],
    [['--size', '25'], /--size: '25'.*0…24/],
    [['--size', ''], /--size: ''/],
    [['--threads', '0'], /--threads: '0'.*1…256/],
    [['--seed', '1.5'], /--seed: '1\.5'/],
    [['--validate', 'toString'], /--validate: 'toString'.*full, on-curve, none/],
    [['--scalar-endian', 'big'], /--scalar-endian: 'big'.*le, be/],
    [['--curve', 'nope'], /--curve: 'nope'.*bls12-381/],
    [['--sise', '4'], /unknown flag --sise/],
    [['--size'], /--size needs a value/],
    [['--json=yes'], /--json takes no value/],
    [['--point-format', 'eip196'], /--point-format: 'eip196'.*zcash/],
    [['--curve', 'bn254', '--points', 'a', '--scalars', 'b'], /--points.*bls12-381 only/],
    [['--points', 'a'], /--points and --scalars/],
    [['--max-memory', '8'], /--max-memory: '8'.*16…4096/],
    [['--max-memory', '1e3'], /--max-memory: '1e3'/],
    [['--window', '1'], /--window: '1'.*2…16/],
    [['--window', '17'], /--window: '17'/],
  ];
  for (const [args, message] of bad) {
    it(args.join(' '), () => {
      const { code, stdout, stderr } = cli('msm', ...args);
      assert.equal(code, 2, stdout + stderr);
      const [first, ...rest] = stderr.split('\n');
      assert.match(first, message);
      assert.match(rest.join('\n'), /^usage: pippin msm/);
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
      assert.equal(stdout, '');
    });
  }
  it('a missing or unknown command', () => {
    assert.equal(cli().code, 2);
    assert.equal(cli('sum', '--size', '4').code, 2);
  });
});
