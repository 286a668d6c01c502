#!/usr/bin/env bash
# Regenerates the arkworks test vectors vectors/<curve>.json (bls12-381, bn254, bls12-377,
# pallas, vesta) with the Rust program in vectors/ (cargo run --release; needs cargo and
# network access to crates.io on the first run); bls12-381.json and bn254.json also hold a "g2"
# member with G2 vectors. On a busy machine: CARGO_BUILD_JOBS=1 nice -n 19 scripts/make-vectors.sh.
# The JSON files are committed data read by test/vectors.test.ts; CI does not run this script.
# The output is deterministic (fixed seeds per curve, crate versions pinned by
# vectors/Cargo.lock), so a re-run should leave git clean.
set -euo pipefail
cd "$(dirname "$0")/../vectors"
cargo run --release --locked
