#!/usr/bin/env bash
# The whole test suite: types, lint, unit and server tests (PGlite, then PostgreSQL), both extension
# builds and their store zips, the Firefox store linter, end-to-end tests in Chromium with the
# store-package checks (Playwright), and a smoke test in Firefox. Every stage runs; the exit code says
# whether all passed. The last line adds up every runner's counts.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -rf test-results && mkdir -p test-results
status=0
# Runs one stage: its name as a heading, its wall time and exit code into test-results/stages.tsv.
stage() {
  local name=$1 started=$SECONDS code=0
  shift
  echo
  echo "=== $name"
  "$@" || code=$?
  printf '%s\t%s\t%s\n' "$name" $((SECONDS - started)) "$code" >>test-results/stages.tsv
  [ "$code" -eq 0 ] || status=1
  return "$code"
}
build_packages() { npx wxt zip && npx wxt zip -b firefox --mv3; }

stage "typecheck" npx tsc --noEmit
stage "lint (ESLint with the import boundaries, Prettier)" npm run --silent lint
stage "unit and server tests (PGlite)" \
  npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest-pglite.json
stage "server tests (PostgreSQL)" bash scripts/with-postgres.sh npx vitest run --project server \
  --reporter=default --reporter=json --outputFile=test-results/vitest-postgres.json

# `wxt zip` builds the browser's extension into .output/<browser>-mv3, then zips that folder: the
# end-to-end tests, the linter and the store-package checks all read exactly what a store receives.
if stage "build and zip the store packages (Chrome MV3, Firefox MV3 and its sources)" build_packages; then
  stage "web-ext lint (Firefox build: 0 errors, 0 warnings, 0 notices)" \
    node scripts/lint-firefox.mjs --report test-results/web-ext-lint.json
  stage "end-to-end (Chromium) and store packages" npx playwright test
  stage "smoke (Firefox)" bash scripts/test-firefox.sh
fi

echo
echo "=== summary"
node scripts/summarize-tests.mjs || status=1
exit $status
