#!/usr/bin/env bash
# The cross-engine suite (test/engines/suite.ts) on every engine: the machine's node (CI: Node 20),
# Node 22 and 24 (PyPI wheels, scripts/node-wheel.sh), Bun and Deno (npm devDependencies bun, deno),
# each on its default backend and on the other one where the engine runs both: Bun (JavaScriptCore,
# wide64 by default) also on i32, Deno also with --v8-flags=--experimental-wasm-wide-arithmetic
# (wide64). Node's V8 (20–24) has no wide-arithmetic flag: i32 only there (the Node suite runs the
# wide64 kernels on the polyfill). Prints each run's summary and a table; exits 1 if any run fails.
# The pippin/kzg check's oracle, c-kzg's outputs for one seeded blob (native binding: made in Node by
# test/engines/kzg-fixture.ts, cached under .cache/kzg-engines/ by c-kzg version and seed), is made
# first and passed to every suite run (--kzg FILE).
# Usage: bash scripts/test-engines.sh [--time] [engine…]   (engines: node node22 node24 bun deno;
# default all; `npm test` runs node, bun and deno, CI all)
set -uo pipefail
cd "$(dirname "$0")/.."
extra=(); sel=()
for a in "$@"; do [[ "$a" == --* ]] && extra+=("$a") || sel+=("$a"); done
[[ ${#sel[@]} -gt 0 ]] || sel=(node node22 node24 bun deno refuse)
S=test/engines/suite.ts
B=node_modules/.bin
runs=()
for e in "${sel[@]}"; do
  case "$e" in
    node) runs+=("node$(node --version | grep -oE '^v[0-9]+' | tr -d v)|node --import tsx $S") ;;
    node22|node24) n="$(bash scripts/node-wheel.sh "${e#node}")" || exit 1
            runs+=("$e|$n --import tsx $S") ;;
    bun) runs+=("bun|$B/bun $S" "bun i32|$B/bun $S --backend i32") ;;
    deno) runs+=("deno|$B/deno run -A --sloppy-imports $S"
                 "deno wide64|$B/deno run -A --sloppy-imports --v8-flags=--experimental-wasm-wide-arithmetic $S --backend wide64") ;;
    # init() refusing a broken wide64 module (test/engines/refuse.ts): the self-test in init()
    refuse) runs+=("bun refuse|$B/bun test/engines/refuse.ts"
                   "deno refuse|$B/deno run -A --sloppy-imports --v8-flags=--experimental-wasm-wide-arithmetic test/engines/refuse.ts") ;;
    *) echo "test-engines: unknown engine $e (node node22 node24 bun deno refuse)" >&2; exit 2 ;;
  esac
done
if [[ " ${sel[*]} " =~ \ (node|node22|node24|bun|deno)\  ]]; then
  kzg="$(node --import tsx test/engines/kzg-fixture.ts)" || { echo "test-engines: the c-kzg fixture failed" >&2; exit 1; }
  runs=("${runs[@]/"$S"/"$S --kzg $kzg"}")
fi
failed=0; table=()
for r in "${runs[@]}"; do
  name="${r%%|*}"; cmd="${r#*|}"
  echo "== $name: $cmd ${extra[*]:-}"
  start=$(date +%s%N)
  out="$($cmd "${extra[@]}" 2>&1)"; rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 )); secs="$((ms / 1000)).$(( (ms % 1000) / 100 ))"
  echo "$out" | grep -v '^ok ' || true
  summary="$(echo "$out" | grep '^{' | tail -1)"
  [[ $rc == 0 && -n "$summary" ]] || { failed=1; summary="${summary:-no summary (exit $rc)}"; }
  table+=("$(printf '%-12s %5ss  rc=%s  %s' "$name" "$secs" "$rc" "$summary")")
done
echo "== cross-engine suite ($(lscpu | sed -n 's/^Model name: *//p'))"
printf '%s\n' "${table[@]}"
exit $failed
