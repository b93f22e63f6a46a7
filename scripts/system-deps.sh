#!/usr/bin/env bash
# System packages the test suite drives for real: Debian's Chromium (browser
# tests with Playwright, which must never download its own browser) and
# redis-server (the Redis broadcaster). Installed only when missing; needs root
# or sudo, as on the project's machines.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
# axe-core for the accessibility tests (npm, into .cache/axe; never fatal here).
bash "$(dirname "$0")/axe.sh" >/dev/null || echo "axe-core not installed (npm missing?)" >&2
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
echo "installing system packages: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
