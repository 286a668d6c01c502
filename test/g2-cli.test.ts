/**
 * `pippin msm --group g2` as a user runs it (a child process): generated G2 inputs in each registry curve's
 * formats and byte orders, verified in closed form by the CLI (exit 0 and "OK"), and the bad
 * combinations, which exit with code 2 and a message naming the flag.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { g2Params } from '../src/curves/index.js';
import { curvesWithoutG2, g2CurveNames } from './helpers/registry.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function cli(...args: string[]): { code: number | null; out: string } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'msm', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  if (res.error) throw res.error;
  return { code: res.status, out: res.stdout + res.stderr };
}

describe('pippin msm --group g2', () => {
  // every registry curve with a G2: its default format, and a compressed one (with the other scalar byte order)
  for (const args of g2CurveNames.flatMap((name, i) => [
    ['--curve', name, '--size', '6', ...(i % 2 ? ['--validate', 'full'] : [])],
    ['--curve', name, '--size', '5', '--point-format', g2Params[name].formats.filter((f) => f.endsWith('compressed')).at(-1) ?? g2Params[name].formats.at(-1)!, ...(i % 2 ? [] : ['--scalar-endian', 'be', '--threads', '1'])],
  ])) {
    it(args.join(' '), () => {
      const { code, out } = cli('--group', 'g2', ...args);
      assert.equal(code, 0, out);
      assert.match(out, /G2: n = \d+ points/);
      assert.match(out, /: OK$/m);
    });
  }
  it('bad combinations exit with code 2 naming the flag', () => {
    // a G2 curve and a G2 format of another curve that it does not have
    const [curve, format] = g2CurveNames.flatMap((c) => g2CurveNames.flatMap((o) => g2Params[o].formats.filter((f) => !(g2Params[c].formats as readonly string[]).includes(f)).map((f) => [c, f]))).at(-1)!;
    for (const [args, flag] of [
      [['--group', 'g3'], /--group/],
      [['--group', 'g2', '--curve', curvesWithoutG2[0]], /--group g2/], // one curve without a G2 (the same check for each)
      [['--group', 'g2', '--curve', curve, '--point-format', format], /--point-format/],
    ] as const) {
      const { code, out } = cli(...args);
      assert.equal(code, 2, out);
      assert.match(out, flag);
    }
  });
});
