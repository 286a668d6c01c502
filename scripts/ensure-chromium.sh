#!/usr/bin/env bash
# The browser tests (part of `npm test`) drive Debian's Chromium. If it is missing and this is a
# Debian machine where we are root, install it (apt-get install -y chromium); otherwise say how and
# fail, so the browser tests never skip silently. CHROMIUM_PATH overrides /usr/bin/chromium.
set -euo pipefail
bin="${CHROMIUM_PATH:-/usr/bin/chromium}"
[[ -x "$bin" ]] && exit 0
if [[ -z "${CHROMIUM_PATH:-}" && "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
  echo "ensure-chromium: $bin missing, installing Debian's chromium (apt-get install -y chromium)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  [[ -x "$bin" ]] && exit 0
fi
echo "ensure-chromium: no Chromium at $bin; install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH" >&2
exit 1
