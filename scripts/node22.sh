#!/usr/bin/env bash
# Prints the path of the pinned Node 22 (PyPI wheel, installed into .cache/node22 if missing; see
# scripts/node-wheel.sh). NODE22 overrides the path.
exec bash "$(dirname "$0")/node-wheel.sh" 22
