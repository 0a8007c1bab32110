#!/usr/bin/env bash
# Builds the FerretDB test server (main.go, FerretDB 1.x with its SQLite backend) into
# .cache/ferretdb/ferretdb at the repository root. Needs Go and the Go module proxy; no C compiler
# (the SQLite driver is pure Go). Skips the build when the binary was already built from the same
# go.mod, go.sum and main.go. Safe to run from several processes at once (a lock serialises them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/.cache/ferretdb"
mkdir -p "$out"

stamp="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" | sha256sum | cut -d' ' -f1)"

exec 9>"$out/.lock"
flock 9

if [[ -x "$out/ferretdb" && "$(cat "$out/ferretdb.stamp" 2>/dev/null)" == "$stamp" ]]; then
  echo "ferretdb: up to date ($out/ferretdb)"
  exit 0
fi

echo "ferretdb: building $out/ferretdb"
cd "$here"
# Without symbols and paths: a test server, a quicker link.
go build -mod=readonly -trimpath -ldflags='-s -w' -o "$out/ferretdb.tmp" .
mv -f "$out/ferretdb.tmp" "$out/ferretdb"
echo "$stamp" >"$out/ferretdb.stamp"
echo "ferretdb: built"
