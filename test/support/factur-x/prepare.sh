#!/usr/bin/env bash
# The Factur-X validators no one here wrote, which test/invoicing/factur-x-validators.test.ts runs, kept
# in .cache/factur-x at the repository root:
# - Mustang's validator (org.mustangproject:validator, the shaded jar from Maven Central, checked against
#   its pinned SHA-256) and ValidateFacturX, the launcher that runs it on several files in one JVM (the
#   jar has no command line of its own), compiled with the machine's JDK 17;
# - a Python venv with the factur-x library and its dependencies pinned (requirements.txt).
# Does nothing for what is already there and up to date. Safe to run from several processes at once.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/.cache/factur-x"
mkdir -p "$out"

mustang_version=2.26.0
mustang_sha256=23e9a985858e9926bd4d820634d7cf1dad418267fe3fa22df14ce2613c106057
jar="$out/validator-$mustang_version-shaded.jar"
url="https://repo.maven.apache.org/maven2/org/mustangproject/validator/$mustang_version/validator-$mustang_version-shaded.jar"

exec 9>"$out/.lock"
flock 9

started=$SECONDS
if [[ ! -f "$jar" ]]; then
  echo "factur-x: downloading Mustang's validator $mustang_version"
  curl -fsSL --retry 3 -o "$jar.part" "$url"
  if ! echo "$mustang_sha256  $jar.part" | sha256sum --check --quiet; then
    echo "factur-x: $url is not the pinned jar (SHA-256 $mustang_sha256)" >&2
    rm -f "$jar.part"
    exit 1
  fi
  mv -f "$jar.part" "$jar"
  echo "factur-x: jar downloaded in $((SECONDS - started)) s"
fi

classes="$out/classes"
stamp="$(cat "$jar.stamp" 2>/dev/null || true)"
wanted="$mustang_version $(sha256sum "$here/ValidateFacturX.java" | cut -d' ' -f1)"
if [[ ! -f "$classes/ValidateFacturX.class" || "$stamp" != "$wanted" ]]; then
  command -v javac >/dev/null || { echo 'factur-x: javac not found: install a JDK 17 (apt-get install openjdk-17-jdk-headless)' >&2; exit 2; }
  rm -rf "$classes"
  javac -nowarn -cp "$jar" -d "$classes" "$here/ValidateFacturX.java"
  echo "$wanted" >"$jar.stamp"
fi

venv="$out/venv"
requirements="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$venv/.requirements" 2>/dev/null || true)" != "$requirements" ]]; then
  started=$SECONDS
  echo "factur-x: creating the Python venv"
  rm -rf "$venv"
  install=(install --quiet --disable-pip-version-check --no-deps --no-compile -r "$here/requirements.txt")
  # A venv without a pip of its own, filled by the machine's pip, when it has one that can (pip 22.3 and
  # later): seconds of CPU less than the venv's own pip, which the type-check and the lint beside it use.
  if ! { python3 -m venv --without-pip "$venv" && python3 -m pip --python "$venv/bin/python" "${install[@]}"; } 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo 'factur-x: python3 -m venv failed: install python3-venv (apt-get install python3-venv)' >&2; exit 2; }
    "$venv/bin/pip" "${install[@]}"
  fi
  echo "$requirements" >"$venv/.requirements"
  echo "factur-x: venv created in $((SECONDS - started)) s"
fi
echo "factur-x: validators ready ($out)"
