/**
 * Flag parsing shared by the CLI and the benchmark scripts (src/cli-args.ts): what is accepted,
 * what is refused and how the refusal reads; then each benchmark script's command line as a child
 * process (bad flags exit 2 before any work, --help exits 0).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { UsageError, choiceFlag, intFlag, intListFlag, listFlag, parseFlags } from '../src/cli-args.js';

const usageError = (message: RegExp) => (e: unknown) => e instanceof UsageError && message.test(e.message);

describe('cli-args', () => {
  it('intFlag: decimal integers in range, the default when absent', () => {
    assert.equal(intFlag('size', undefined, 16, 0, 24), 16);
    assert.equal(intFlag('size', '0', 16, 0, 24), 0);
    assert.equal(intFlag('size', '24', 16, 0, 24), 24);
    assert.equal(intFlag('size', '007', 16, 0, 24), 7);
    for (const bad of ['', ' 4', '4 ', '4.5', '1e1', '0x10', '-1', '+3', '25', 'abc', 'Infinity', '99999999999999999999']) {
      assert.throws(() => intFlag('size', bad, 16, 0, 24), usageError(/^--size: '.*' is not an integer in 0…24$/), JSON.stringify(bad));
    }
  });
  it('intListFlag: comma-separated integers, duplicates dropped', () => {
    assert.deepEqual(intListFlag('sizes', undefined, [10, 12], 0, 24), [10, 12]);
    assert.deepEqual(intListFlag('sizes', '16, 18,16', [10], 0, 24), [16, 18]);
    for (const bad of ['', '10,', '10,,12', '10,x', '10,25', '1.5']) {
      assert.throws(() => intListFlag('sizes', bad, [10], 0, 24), usageError(/^--sizes: '.*' is not a list of integers in 0…24/), JSON.stringify(bad));
    }
  });
  it('choiceFlag: only the listed values (not inherited property names)', () => {
    const allowed = ['full', 'on-curve', 'none'] as const;
    assert.equal(choiceFlag('validate', undefined, 'full', allowed), 'full');
    assert.equal(choiceFlag('validate', 'none', 'full', allowed), 'none');
    for (const bad of ['toString', '__proto__', 'constructor', 'FULL', '']) {
      assert.throws(() => choiceFlag('validate', bad, 'full', allowed), usageError(/^--validate: '.*' is not one of full, on-curve, none$/));
    }
  });
  it('listFlag: non-empty names, checked against a list when given', () => {
    assert.deepEqual(listFlag('peers', 'a, b,a', []), ['a', 'b']);
    assert.deepEqual(listFlag('peers', undefined, ['x']), ['x']);
    assert.throws(() => listFlag('peers', 'a,,b', []), usageError(/--peers: 'a,,b' has an empty item/));
    assert.throws(() => listFlag('curves', 'bn254,nope', [], ['bn254', 'pallas']), usageError(/--curves: 'nope' is not one of bn254, pallas/));
  });
  it('parseFlags: strict; each parse error names the flag', () => {
    const spec = { size: { type: 'string' }, json: { type: 'boolean' } } as const;
    assert.deepEqual({ ...parseFlags(['--size', '4', '--json'], spec).values }, { size: '4', json: true });
    assert.deepEqual({ ...parseFlags(['--size=4'], spec).values }, { size: '4' });
    assert.deepEqual(parseFlags(['msm', '--size', '4'], spec, true).positionals, ['msm']);
    assert.throws(() => parseFlags(['--sise', '4'], spec), usageError(/^unknown flag --sise \(flags: --size, --json\)$/));
    assert.throws(() => parseFlags(['--size'], spec), usageError(/^--size needs a value$/));
    assert.throws(() => parseFlags(['--size', '--json'], spec), usageError(/^--size needs a value/));
    assert.throws(() => parseFlags(['--json=1'], spec), usageError(/^--json takes no value$/));
    assert.throws(() => parseFlags(['msm'], spec), usageError(/^unexpected argument 'msm'/));
  });
});

describe('benchmark command lines', () => {
  const ROOT = fileURLToPath(new URL('..', import.meta.url));
  const run = (script: string, ...args: string[]) => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    if (res.error) throw res.error;
    return res;
  };
  const cases: [string, string[], RegExp][] = [
    ['bench/msm.ts', ['--sizes', '10,x'], /--sizes: '10,x'/],
    ['bench/msm.ts', ['--sise', '10'], /unknown flag --sise/],
    ['bench/msm.ts', ['--curve', 'pallas'], /--curve: 'pallas' is not one of bls12-381, bn254/],
    ['bench/msm.ts', ['--rounds', '0'], /--rounds: '0'/],
    ['bench/msm.ts', ['--node', '/nonexistent/node'], /--node: cannot run "\/nonexistent\/node" --version/],
    ['bench/field.ts', ['--runs', 'abc'], /--runs: 'abc'/],
    ['bench/subgroup-exact.ts', ['--chunks', '64,x'], /--chunks: '64,x'/],
    ['bench/field.ts', ['--curves', 'nope'], /--curves: 'nope'/],
    ['bench/windows.ts', ['--cs', '1,5'], /--cs: '1,5'.*2…16/],
    ['bench/abort.ts', ['--sizes', '9'], /--sizes: '9'.*10…24/],
    ['bench/stream.ts', ['--max-memory', '8'], /--max-memory: '8'.*16…4096/],
    ['bench/browser.ts', ['--validate', 'toString'], /--validate: 'toString'/],
    ['bench/peers/run-all.ts', ['--runs', '0'], /--runs: '0'/],
    ['bench/peers/run-peer.ts', ['--peer', 'noble'], /--log-size is required/],
    ['bench/peers/run-peer.ts', ['--peer', 'noble', '--log-size', '4', '--threads', 'many'], /--threads: 'many'.*auto/],
  ];
  for (const [script, args, message] of cases) {
    it(`${script} ${args.join(' ')} exits 2`, () => {
      const { status, stdout, stderr } = run(script, ...args);
      assert.equal(status, 2, stdout + stderr);
      assert.match(stderr.split('\n')[0], message);
      assert.match(stderr, /\nusage: /);
      assert.doesNotMatch(stderr, /\n\s+at /);
    });
  }
  for (const script of ['bench/msm.ts', 'bench/field.ts', 'bench/subgroup-exact.ts', 'bench/windows.ts', 'bench/abort.ts', 'bench/stream.ts', 'bench/browser.ts', 'bench/peers/run-all.ts', 'bench/peers/run-peer.ts']) {
    it(`${script} --help exits 0`, () => {
      const { status, stdout } = run(script, '--help');
      assert.equal(status, 0);
      assert.match(stdout, /^usage: /);
    });
  }
});
