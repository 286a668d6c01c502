#!/usr/bin/env bash
# Prints the path of the pinned Node 24 (PyPI wheel, installed into .cache/node24 if missing; see
# scripts/node-wheel.sh). NODE24 overrides the path.
exec bash "$(dirname "$0")/node-wheel.sh" 24
