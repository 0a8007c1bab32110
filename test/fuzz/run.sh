#!/usr/bin/env bash
# npm run test:fuzz: Schemathesis against the complete /openapi.json of a real server on the demo
# data, each API group with its own token, default checks, examples, coverage, fuzzing and stateful
# phases, a bounded number of examples per operation. Exits non-zero on any failure; the server and
# its temporary DATA_DIR are always removed.
#   FUZZ_EXAMPLES   test cases per operation and phase (default 30)
#   FUZZ_SEED       the generation seed (default fixed, so that CI runs are reproducible)
#   FUZZ_GROUPS     the groups to run, among core supplier-a supplier-b chatbot public (default all)
#   FUZZ_PREPARE_ONLY=1: only create the fuzzer's venv (the CI does it while the suite runs)
# Each group's full report goes to .cache/fuzz/<group>.log; the console gets one line per group, and
# the whole report of a group that failed. (Schemathesis closes its report with a pytest-like banner,
# "=== 2 warnings in 19.91s ===", which log scanners read as a pytest run that executed no test.)
set -euo pipefail
cd "$(dirname "$0")/../.."

schemathesis_version=4.32.5
venv=.cache/schemathesis-venv
examples=${FUZZ_EXAMPLES:-30}
seed=${FUZZ_SEED:-20261124}
groups=${FUZZ_GROUPS:-core supplier-a supplier-b chatbot public}

# The fuzzer, pinned, in its own venv (created once, recreated when the pin changes).
if [[ "$("$venv/bin/schemathesis" --version 2>/dev/null || true)" != *" $schemathesis_version" ]]; then
  rm -rf "$venv"
  mkdir -p .cache
  python3 -m venv "$venv" || { echo 'python3 -m venv failed: install python3-venv (apt-get install python3-venv)' >&2; exit 2; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi
[[ -n "${FUZZ_PREPARE_ONLY:-}" ]] && exit 0

data_dir=$(mktemp -d)
server_pid=
stop() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$data_dir"
}
trap stop EXIT
trap 'exit 130' INT TERM

export DATA_DIR="$data_dir" LOG_LEVEL=${LOG_LEVEL:-warn}
# The service and the CLI as `npm start` and `npm run cli` run them: their bundles, built once here.
node build.mjs
cli() { node --enable-source-maps dist/cli.mjs "$@"; }
cli demo seed --orders 40 --seed 7 >/dev/null
# The tokens and the action tokens below are made by CLI commands started side by side (each spends most
# of its second starting), each into a file of its own.
minted="$data_dir/minted"
mkdir -p "$minted"
token() { cli token issue --group "$1" --label fuzz | tail -n 1 >"$minted/$1"; }
for group in core supplier-a supplier-b chatbot; do token "$group" & done

# Action tokens are signed by the service: the fuzzer cannot make one, so each token route gets one
# minted here (on the last, most likely undelivered, sale), in a copy of the configuration.
sale=40
day=$(date -d '+8 days' +%F)
while [[ "$(date -d "$day" +%u)" -ge 6 ]]; do day=$(date -d "$day +1 day" +%F); done
action_token() {
  local kind=$1
  shift
  cli action-token "$kind" "$@" | tail -n 1 >"$minted/action-$kind"
}
action_token rdv --sale "$sale" --data "{\"date\":\"$day\",\"time\":\"10:00\"}" &
action_token address --sale "$sale" --data '{"firstname":"Zoé","lastname":"Brunet","street":["38 allée des Tilleuls"],"postcode":"38100","city":"Grenoble","country_id":"FR"}' &
action_token delivery-rdv --sale "$sale" --data '{"provider":"Cargomatic","reference":"CGM-4471"}' &
action_token cancel --sale "$sale" &
action_token invoice --sale "$sale" &
# Each command's failure is the script's (set -e does not see a background job's status).
for job in $(jobs -p); do wait "$job"; done
declare -A tokens
for group in core supplier-a supplier-b chatbot; do
  tokens[$group]=$(<"$minted/$group")
  [[ -n "${tokens[$group]}" ]] || { echo "no $group token was issued" >&2; exit 1; }
done
config="$data_dir/schemathesis.toml"
cp test/fuzz/schemathesis.toml "$config"
add_token() {
  [[ -n "$2" ]] || { echo "no action token for $1" >&2; exit 1; }
  printf '\n[[operations]]\ninclude-operation-id = %s\nparameters = { "path.token" = "%s" }\n' "$1" "$2" >>"$config"
}
add_token '["checkSaleRdv", "applySaleRdv"]' "$(<"$minted/action-rdv")"
add_token '"changeSaleAddress"' "$(<"$minted/action-address")"
add_token '"saveSaleDeliveryRdv"' "$(<"$minted/action-delivery-rdv")"
add_token '"cancelSaleByToken"' "$(<"$minted/action-cancel")"
add_token '"getSaleInvoice"' "$(<"$minted/action-invoice")"

# A webhook endpoint valid by its schema may still be refused: its host must resolve to public
# addresses (the address policy), and this machine resolves no name. That 400 is expected, not a fault.
printf '\n[[operations]]\ninclude-operation-id = ["subscribeWebhookSupplierA", "subscribeWebhookSupplierB"]\nchecks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "409", "422", "429"]\n' >>"$config"

port=$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
base="http://127.0.0.1:$port"
# The service as `npm start` runs it: node with its arguments (the script's words after `exec node`).
read -r -a start_arguments <<<"$(node -p "require('./package.json').scripts.start.split(/\\s+/).slice(2).join(' ')")"
PORT=$port HOST=127.0.0.1 BASE_URL=$base node "${start_arguments[@]}" >"$data_dir/server.log" 2>&1 &
server_pid=$!
healthy() { node -e "fetch('$base/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; }
for _ in $(seq 1 120); do
  healthy && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$data_dir/server.log" >&2; exit 1; }
  sleep 0.5
done
healthy || { echo 'the server did not become healthy' >&2; exit 1; }

# One worker: Python 3.11's parser is not thread-safe in Schemathesis' coverage phase (it failed with
# "AST constructor recursion depth mismatch" under two workers).
# Each group: its operations (by tag), the header its scheme takes, its phases. The label files go with
# supplier-a, whose listing links to them; the public routes link nowhere (no stateful phase).
declare -A filters=(
  [core]="--include-tag-regex ^core-"
  [supplier-a]="--include-tag-regex ^(supplier-a|files)$"
  [supplier-b]="--include-tag supplier-b"
  [chatbot]="--include-tag chatbot"
  [public]="--include-tag-regex ^(health|reference)$"
)
declare -A phases=(
  [core]=examples,coverage,fuzzing,stateful
  [supplier-a]=examples,coverage,fuzzing,stateful
  [supplier-b]=examples,coverage,fuzzing,stateful
  [chatbot]=examples,coverage,fuzzing,stateful
  [public]=examples,coverage,fuzzing
)
declare -A headers=(
  [core]="Authorization: Bearer ${tokens[core]}"
  [supplier-a]="Authorization: Bearer ${tokens[supplier-a]}"
  [supplier-b]="Authorization: Bearer ${tokens[supplier-b]}"
  [chatbot]="X-API-Token: ${tokens[chatbot]}"
  [public]=""
)

log_dir=.cache/fuzz
mkdir -p "$log_dir"
# One group's run; its one-line summary (or its whole report, when it fails) is written beside its log.
fuzz_group() {
  local group=$1 log="$log_dir/$1.log" header=()
  [[ -n "${headers[$group]}" ]] && header=(-H "${headers[$group]}")
  # shellcheck disable=SC2086 # the filter is two words
  if "$venv/bin/schemathesis" --config-file "$config" run "$base/openapi.json" ${filters[$group]} "${header[@]}" \
    --phases "${phases[$group]}" --max-examples "$examples" --seed "$seed" \
    --workers 1 --generation-database none --request-timeout 30 --no-color >"$log" 2>&1; then
    operations=$(sed -n 's/^ *Tested: *\([0-9]*\).*/\1/p' "$log" | head -n 1)
    cases=$(sed -n 's/^ *\([0-9]*\) generated.*/\1/p' "$log" | head -n 1)
    echo "Schemathesis, $group: ${operations:-?} operations, ${cases:-?} generated cases, none failing ($log)" >"$log_dir/$group.summary"
  else
    { echo "== Schemathesis, $group: FAILED; its report ($log):"; cat "$log"; } >"$log_dir/$group.summary"
    return 1
  fi
}
lane() {
  local status=0 group
  for group in "$@"; do fuzz_group "$group" || status=1; done
  return $status
}

# Two lanes side by side (one process each, on two cores): the first group, the largest, and the others.
read -r -a all_groups <<<"$groups"
for group in "${all_groups[@]}"; do rm -f "$log_dir/$group.summary"; done
lane "${all_groups[0]}" &
first_lane=$!
lane "${all_groups[@]:1}" || true
wait "$first_lane" || true
failed=()
for group in "${all_groups[@]}"; do
  cat "$log_dir/$group.summary"
  if [[ "$(head -c 3 "$log_dir/$group.summary")" == '== ' ]]; then failed+=("$group"); fi
done

if ((${#failed[@]} > 0)); then
  echo "Schemathesis found failures in: ${failed[*]}" >&2
  echo "server log: (last lines)" >&2
  tail -n 20 "$data_dir/server.log" >&2
  exit 1
fi
echo 'Schemathesis: no failure'
