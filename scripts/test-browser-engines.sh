#!/usr/bin/env bash
# The cross-engine checks (test/engines/checks.ts) in every browser engine: Chromium (with and
# without V8's wide-arithmetic flag), Firefox ESR (the wide-arithmetic pref off and on; WebDriver
# BiDi through puppeteer-core) and WebKitGTK (MiniBrowser through WebKitWebDriver on Xvfb, with and
# without JSC_useSharedArrayBuffer=1), each page with and without cross-origin isolation.
# Installs the browsers if missing (scripts/ensure-engines.sh) and runs on the pinned Node 22
# (puppeteer-core 25 needs Node ≥ 22.12). PIPPIN_ENGINE_BENCH='{"sizes":[14,16],"threads":[1,2],"runs":3}'
# (or PIPPIN_ENGINE_TIME=1: the defaults) times verified MSMs on the cross-origin-isolated pages.
# Usage: bash scripts/test-browser-engines.sh [chromium] [firefox] [webkit]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
sel=("$@"); [[ ${#sel[@]} -gt 0 ]] || sel=(chromium firefox webkit)
bash scripts/ensure-engines.sh "${sel[@]}"
node22="$(bash scripts/node-wheel.sh 22)"
files=()
for e in "${sel[@]}"; do files+=("test/browser/engines/$e.browser.test.ts"); done
echo "test-browser-engines: $("$node22" --version), ${files[*]}" >&2
exec "$node22" --import tsx --test --test-reporter=spec --test-concurrency=1 --test-timeout=900000 "${files[@]}"
