#!/usr/bin/env bash
# Firefox smoke test: the built Firefox MV3 extension in Debian's Firefox ESR (headless), driven by
# puppeteer-core over WebDriver BiDi, against the bundled server. Builds nothing: run
# `npx wxt build -b firefox --mv3` first. Needs `firefox-esr` (or FIREFOX_PATH). Last line:
# `firefox smoke: N passed, M failed`; artifacts in test-results/firefox/.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .output/firefox-mv3/manifest.json ]; then
  echo "firefox smoke: no Firefox build; run: npx wxt build -b firefox --mv3" >&2
  echo "firefox smoke: 0 passed, 1 failed"
  exit 1
fi
exec node --import tsx test/firefox/smoke.ts "$@"
