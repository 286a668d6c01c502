/**
 * `pippin msm --group g2` as a user runs it (a child process): generated G2 inputs in each curve's
 * formats and byte orders, verified in closed form by the CLI (exit 0 and "OK"), and the bad
 * combinations, which exit with code 2 and a message naming the flag.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function cli(...args: string[]): { code: number | null; out: string } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'msm', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (res.error) throw res.error;
  return { code: res.status, out: res.stdout + res.stderr };
}

describe('pippin msm --group g2', () => {
  for (const args of [
    ['--curve', 'bls12-381', '--size', '6'],
    ['--curve', 'bls12-381', '--size', '5', '--point-format', 'zcash-compressed', '--scalar-endian', 'be', '--threads', '1'],
    ['--curve', 'bn254', '--size', '6', '--validate', 'full'],
    ['--curve', 'bn254', '--size', '5', '--point-format', 'arkworks-compressed'],
  ]) {
    it(args.join(' '), () => {
      const { code, out } = cli('--group', 'g2', ...args);
      assert.equal(code, 0, out);
      assert.match(out, /G2: n = \d+ points/);
      assert.match(out, /: OK$/m);
    });
  }
  it('bad combinations exit with code 2 naming the flag', () => {
    for (const [args, flag] of [
      [['--group', 'g3'], /--group/],
      [['--group', 'g2', '--curve', 'pallas'], /--group g2/],
      [['--group', 'g2', '--curve', 'bn254', '--point-format', 'zcash'], /--point-format/],
    ] as const) {
      const { code, out } = cli(...args);
      assert.equal(code, 2, out);
      assert.match(out, flag);
    }
  });
});
