#!/usr/bin/env bash
# `npm start`: build the extension, then run the bundled server with demo data on 127.0.0.1:8787.
set -euo pipefail
cd "$(dirname "$0")/.."
npx wxt build
cat <<MSG

Compliance Lens is built: $(pwd)/.output/chrome-mv3
  1. Chrome/Chromium: open chrome://extensions, turn on Developer mode, "Load unpacked", choose the folder above.
     (Firefox: npm run build:firefox, then about:debugging → This Firefox → Load Temporary Add-on → .output/firefox-mv3/manifest.json)
  2. Open http://127.0.0.1:8787/demo and hover a share link (each snapshot fetch counts as one view for the founder).
  3. The founder API and the snapshot API are described at http://127.0.0.1:8787/api/openapi.json
  4. To change a demo company, use its founder key printed below (PATCH /api/founder/organisation);
     demo data is kept across restarts (npm start -- --reseed starts over). Partners: README, "Partners".

Starting the server with demo data (Ctrl+C to stop)…
MSG
exec npx tsx server/cli.ts --seed "$@"
