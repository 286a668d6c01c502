/**
 * `npm run bench:engines -- --engines chromium --sizes 10 --runs 1 --threads 1 --json` with a real
 * Chromium (in `npm test`, after scripts/ensure-chromium.sh): the browser runs exactly the sizes,
 * threads and runs asked for (before PIPPIN_ENGINE_BENCH it ran 2^14 and 2^16 on 1 and 2 threads,
 * 3 runs, whatever the flags said). Both Chromium settings (i32 by default, wide64 with the flag)
 * give one verified row each, and nothing else. ≈ 15 s: the page passes every cross-engine check
 * first (scripts/test-browser-engines.sh, on the pinned Node 22).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Row } from '../../bench/engines.js';

test('bench:engines --engines chromium --sizes 10 --runs 1 --threads 1: the browser runs exactly that', { timeout: 300_000 }, () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const args = ['--import', 'tsx', 'bench/engines.ts', '--engines', 'chromium', '--sizes', '10', '--runs', '1', '--threads', '1', '--json'];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 280_000 });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `exit ${r.status}\n${r.stderr.slice(-3000)}`);
  assert.match(r.stderr, /PIPPIN_ENGINE_BENCH='\{"sizes":\[10\],"threads":\[1\],"runs":1\}'/);
  const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
  const key = (x: Row) => `${x.engine} ${x.backend} ${x.setting} ${x.threads}t 2^${x.logSize}`;
  assert.deepEqual(rows.map(key).sort(), ['chromium i32  1t 2^10', 'chromium wide64 --js-flags=--wasm-wide-arithmetic 1t 2^10']);
  for (const x of rows) {
    assert.deepEqual(Object.keys(x).sort(), ['backend', 'engine', 'logSize', 'medianMs', 'ok', 'setting', 'threads', 'version']);
    assert.equal(x.ok, true, `${key(x)}: verified`);
    assert.match(x.version, /^\d+\.\d+\.\d+/);
    assert.ok(x.medianMs > 0 && Number.isFinite(x.medianMs), `${key(x)}: medianMs ${x.medianMs}`);
  }
  // the table, on stderr with --json: the one size column asked for
  assert.match(r.stderr, /median of 1 verified runs; .+; \d{4}-\d{2}-\d{2}\n\| engine \| version \| backend \| switch \| threads \| 2\^10 ms \|\n/);
});
