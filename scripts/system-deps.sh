#!/usr/bin/env bash
# System packages the test suite drives for real: Debian's Chromium (browser
# tests with Playwright, which must never download its own browser),
# redis-server (the Redis broadcaster), promtool (Debian's prometheus package:
# ops/alerts.yml is checked with it) and npm (which fetches axe-core, the
# accessibility rules the browser tests run: scripts/axe.sh). Installed only
# when missing; needs root or sudo, as on the project's machines.
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "installing system packages: ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# axe-core 4.x into .cache/axe (gitignored), once.
bash "$(dirname "$0")/axe.sh" >/dev/null
