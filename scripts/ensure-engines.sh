#!/usr/bin/env bash
# Installs the browsers the cross-engine browser tests drive, from Debian (idempotent: only what is
# missing; CI runs it on a fresh machine): firefox-esr (driven over WebDriver BiDi by puppeteer-core),
# webkit2gtk-driver (WebKitWebDriver and MiniBrowser, WebKitGTK) and xvfb (xvfb-run, its display),
# chromium (scripts/ensure-chromium.sh). Prints each engine's version. Debian's security archive
# replaces versions, so they are checked (at least the major version the tests were written for),
# not pinned to one build: Firefox ESR ≥ 153 (its wide-arithmetic pref), WebKitGTK ≥ 2.50.
# Usage: bash scripts/ensure-engines.sh [firefox] [webkit] [chromium]   (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
want=("$@"); [[ ${#want[@]} -gt 0 ]] || want=(firefox webkit chromium)
pkgs=()
for e in "${want[@]}"; do
  case "$e" in
    firefox) [[ -x /usr/bin/firefox-esr ]] || pkgs+=(firefox-esr) ;;
    webkit) [[ -x /usr/bin/WebKitWebDriver ]] || pkgs+=(webkit2gtk-driver)
            command -v xvfb-run >/dev/null || pkgs+=(xvfb xauth) ;;
    chromium) bash scripts/ensure-chromium.sh ;;
    *) echo "ensure-engines: unknown engine $e (firefox, webkit, chromium)" >&2; exit 2 ;;
  esac
done
if [[ ${#pkgs[@]} -gt 0 ]]; then
  if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "ensure-engines: missing ${pkgs[*]}; install them (apt-get install -y ${pkgs[*]})" >&2; exit 1
  fi
  echo "ensure-engines: apt-get install -y ${pkgs[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null
fi
major() { grep -oE '[0-9]+' <<<"$1" | head -1; }
for e in "${want[@]}"; do
  case "$e" in
    firefox) v="$(dpkg-query -W -f '${Version}' firefox-esr)"; echo "firefox-esr $v" >&2
             (( $(major "$v") >= 153 )) || { echo "ensure-engines: firefox-esr $v < 153" >&2; exit 1; } ;;
    webkit) v="$(dpkg-query -W -f '${Version}' webkit2gtk-driver)"; echo "webkit2gtk-driver $v" >&2
            [[ "$v" =~ ^2\.(5[0-9]|[6-9][0-9]) ]] || { echo "ensure-engines: WebKitGTK $v < 2.50" >&2; exit 1; } ;;
  esac
done
