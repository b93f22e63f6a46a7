#!/usr/bin/env bash
# axe-core (the accessibility rules engine the browser tests inject into each
# page, tests/browser/test_a11y.py): installed with npm into .cache/axe
# (gitignored) when missing; prints the path of axe.min.js. Run by the tests
# themselves and by scripts/system-deps.sh, so a fresh machine with npm needs
# nothing else. Pinned to the 4.x line; the version installed is printed by
# the test with its findings.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
js="$here/.cache/axe/node_modules/axe-core/axe.min.js"
if [ ! -f "$js" ]; then
  command -v npm >/dev/null 2>&1 || { echo "npm is missing: apt-get install -y npm" >&2; exit 1; }
  npm install --silent --no-audit --no-fund --prefix "$here/.cache/axe" axe-core@4 >&2
fi
echo "$js"
