#!/usr/bin/env bash
# `npm start`: build the extension, then run the bundled server on 127.0.0.1:8787 as the one server
# the README's demo and its "Partners" walk-through both use: demo data (--seed), the dev API and
# plain-http webhooks to this machine (--dev), and the operator API (a secret made for this run and
# printed, unless --operator-secret or OPERATOR_SECRET gives one). Other flags go to the server.
set -euo pipefail
cd "$(dirname "$0")/.."

server_args=(--seed --dev)
secret_line="Partners (README, \"Partners\"): the operator API takes the operator secret you gave."
given_secret=false
for arg in "$@"; do
  case "$arg" in --operator-secret | --operator-secret=*) given_secret=true ;; esac
done
if [ "$given_secret" = false ] && [ -z "${OPERATOR_SECRET:-}" ]; then
  secret="dev-$(node -e 'process.stdout.write(require("node:crypto").randomBytes(18).toString("base64url"))')"
  server_args+=(--operator-secret "$secret")
  secret_line="Partners (README, \"Partners\"): operator secret for this run: $secret"
fi

npx wxt build
cat <<MSG

Compliance Lens is built: $(pwd)/.output/chrome-mv3
  1. Chrome/Chromium: open chrome://extensions, turn on Developer mode, "Load unpacked", choose the folder above.
     (Firefox: npm run build:firefox, then about:debugging → This Firefox → Load Temporary Add-on → .output/firefox-mv3/manifest.json)
  2. Open http://127.0.0.1:8787/demo and hover a share link (each snapshot fetch counts as one view for the founder).
  3. The founder API and the snapshot API are described at http://127.0.0.1:8787/api/openapi.json
  4. To change a demo company, use its founder key printed below (PATCH /api/founder/organisation);
     demo data is kept across restarts (npm start -- --reseed starts over).
  5. $secret_line

Starting the server with demo data (Ctrl+C to stop)…
MSG
exec node --import tsx server/cli.ts "${server_args[@]}" "$@"
