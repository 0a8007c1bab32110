#!/usr/bin/env bash
# `npm test`: type-check and lint side by side (while the MongoDB-compatible test server, and the native
# addon when the install skipped its compile, are built beside them, and the Factur-X validators installed;
# the server's build may go on beside the suite), then the whole suite on the embedded default, the three-instance proof alone, then the production path's set on the production
# adapters (test/spec-sets.ts). Each step prints its time; with TEST_REPORT_DIR set (.ci/run), the
# times are also written there, for the CI's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

step_started=$SECONDS
step() {
  local name=$1
  shift
  step_started=$SECONDS
  echo "== npm test: $name"
  "$@"
  done_step "$name"
}
done_step() {
  local line
  line=$(printf '%-40s %5d s' "  $1" $((SECONDS - step_started)))
  echo "== npm test: $1 took $((SECONDS - step_started)) s"
  [[ -n "${TEST_REPORT_DIR:-}" ]] && echo "$line" >>"$TEST_REPORT_DIR/steps.txt"
  return 0
}

# The server build (Go) runs beside the type-check and the lint (each of those uses one core), and on
# beside the suite if need be.
servers_log=$(mktemp)
facturx_log=$(mktemp)
trap 'rm -f "$servers_log" "$facturx_log"' EXIT
bash test/support/ferretdb/build.sh >"$servers_log" 2>&1 &
servers=$!

# So do the Factur-X validators' downloads (Mustang's jar, the factur-x venv: a quarter of a minute,
# mostly waiting on the network), which the validators' spec runs.
bash test/support/factur-x/prepare.sh >"$facturx_log" 2>&1 &
facturx=$!

# The native addon not built yet (an install with --ignore-scripts, as the CI makes to overlap them):
# compiled beside the type-check and the lint, which do not need it (one core for about a minute and a half).
addon_log=$(mktemp)
addon=
if ! node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null; then
  npm rebuild better-sqlite3 >"$addon_log" 2>&1 &
  addon=$!
fi

# The checks of `npm run typecheck` and `npm run lint` on two lanes of about a minute each (each mostly
# one core): the type-check and the layers' rules; the code's rules and the formatting. The second
# lane's output after the first's.
checks() {
  local lint_log status=0
  lint_log=$(mktemp)
  { npm run --silent lint:code && npm run --silent lint:format; } >"$lint_log" 2>&1 &
  local lint=$!
  npm run --silent typecheck || status=$?
  npm run --silent lint:layers || status=$?
  wait "$lint" || status=$?
  cat "$lint_log"
  rm -f "$lint_log"
  return "$status"
}
step 'type-check and lint' checks
step_started=$SECONDS
if ! wait "$facturx"; then
  cat "$facturx_log"
  exit 1
fi
cat "$facturx_log"
done_step 'Factur-X validators (after the lint)'
if [[ -n "$addon" ]]; then
  step_started=$SECONDS
  if ! wait "$addon"; then
    cat "$addon_log"
    exit 1
  fi
  done_step 'better-sqlite3 compiled (after the lint)'
fi
rm -f "$addon_log"

# The suite starts while the test server's build may still run (a fresh machine downloads its Go
# modules, then compiles them): the files that start that server come last (vitest.config.ts), and
# wait for the build behind its lock if it is not done by then.
step 'the whole suite, embedded' npx vitest run
step_started=$SECONDS
if ! wait "$servers"; then
  cat "$servers_log"
  exit 1
fi
cat "$servers_log"
done_step 'test servers (after the suite)'
step 'three instances, alone' env TEST_SET=instances npx vitest run
step 'the production path, production adapters' env TEST_BACKENDS=production npx vitest run
