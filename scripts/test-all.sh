#!/usr/bin/env bash
# The whole test suite: types, lint, unit and server tests (PGlite, then PostgreSQL), both extension
# builds and their store zips, the Firefox store linter, end-to-end tests in Chromium with the
# store-package checks (Playwright), and a smoke test in Firefox. Every stage runs; the exit code says
# whether all passed. The last line adds up every runner's counts.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf test-results && mkdir -p test-results
status=0
stage() { echo; echo "=== $1"; }

stage "typecheck"
npx tsc --noEmit || status=1

stage "lint (ESLint with the import boundaries, Prettier)"
npm run --silent lint || status=1

stage "unit and server tests (PGlite)"
npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest-pglite.json || status=1

stage "server tests (PostgreSQL)"
bash scripts/with-postgres.sh npx vitest run --project server \
  --reporter=default --reporter=json --outputFile=test-results/vitest-postgres.json || status=1

# `wxt zip` builds the browser's extension into .output/<browser>-mv3, then zips that folder: the
# end-to-end tests, the linter and the store-package checks all read exactly what a store receives.
stage "build and zip the store packages (Chrome MV3, Firefox MV3 and its sources)"
if npx wxt zip && npx wxt zip -b firefox --mv3; then
  stage "web-ext lint (Firefox build: 0 errors, 0 warnings, 0 notices)"
  node scripts/lint-firefox.mjs --report test-results/web-ext-lint.json || status=1
  stage "end-to-end (Chromium) and store packages"
  npx playwright test || status=1
  stage "smoke (Firefox)"
  bash scripts/test-firefox.sh || status=1
else
  status=1
fi

stage "summary"
node scripts/summarize-tests.mjs || status=1
exit $status
