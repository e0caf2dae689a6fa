#!/usr/bin/env bash
# The whole test suite (`npm test`): system deps, typecheck, lint, unit, integration, build, browser tests, fault tests, cluster tests.
# Stops at the first failing step with its exit code.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export NEXT_TELEMETRY_DISABLED=1

suite_start=$(date +%s)
timings=()

step() {
  local name=$1
  shift
  echo
  echo "==> ${name}: $*"
  local start code=0
  start=$(date +%s)
  "$@" || code=$?
  local elapsed=$(($(date +%s) - start))
  if ((code != 0)); then
    echo "==> FAILED: ${name} (exit ${code}) after ${elapsed}s; total $(($(date +%s) - suite_start))s" >&2
    exit "$code"
  fi
  timings+=("$(printf '%-12s %5ss' "$name" "$elapsed")")
  echo "==> ${name} ok (${elapsed}s)"
}

step "deps" bash scripts/ensure-test-deps.sh
step "stdio-user" bash scripts/share-checkout-with-stdio-user.sh
step "typecheck" npx tsc --noEmit
step "lint" npm run lint --silent
step "unit" npx vitest run --project unit --project components # components: client hooks in jsdom
step "integration" npx vitest run --project integration
step "build" npx next build
step "e2e" npx playwright test # the browser tests (tests/e2e) and the attack reproductions (tests/security)
step "clients" npx playwright test --config playwright.clients.config.ts # real MCP clients from npm against the gateway (tests/clients)
step "faults" npx playwright test --config playwright.faults.config.ts # crashes, signals, database outages (tests/faults)
step "cluster" npx playwright test --config playwright.cluster.config.ts # three replicas, HAProxy in front, rolling restarts under load (tests/cluster)

echo
echo "==> all steps passed"
printf '    %s\n' "${timings[@]}"
echo "    total        $(($(date +%s) - suite_start))s"
