#!/usr/bin/env bash
# Builds every bundler example against the repo's own package (dependency "pippin": "file:../..",
# i.e. the root dist/, which `npm ci` / `npm run build` at the root produces) and runs each built
# app in Node (smoke.mjs): the MSM result must be correct. Fails on any error.
#
# Install: `npm install --no-save` with the committed package-lock.json. The lockfile pins the
# bundler toolchain; plain `npm ci` would reject it whenever the root package.json changes (the
# lockfile records the linked root package's metadata), `--no-save` keeps the lockfile untouched.
# `--ignore-scripts`: no install scripts are needed (in particular not the root's `prepare`
# rebuild through the link).
set -euo pipefail
cd "$(dirname "$0")"

[[ -f ../dist/index.js ]] || { echo "examples: ../dist/index.js missing: run 'npm run build' at the root first"; exit 1; }

for ex in vite webpack; do
  echo "== examples/$ex"
  start=$SECONDS
  (
    cd "$ex"
    npm install --ignore-scripts --no-save --no-audit --no-fund --loglevel=error
    rm -rf dist
    npm run --silent build
    node ../smoke.mjs dist
  )
  echo "== examples/$ex: ok in $((SECONDS - start)) s"
done
