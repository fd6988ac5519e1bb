#!/bin/sh
# gen.sh regenerates cpmm_sdk_vectors.json from the pinned @raydium-io/raydium-sdk-v2.
#
# `npm pack` fetches the pinned tarballs into a temporary directory (nothing is installed, here or
# in the build); their integrity is checked against the hashes below; only the files the
# generator reads are unpacked: the SDK's two curve files (lib/raydium/cpmm/curve/calculator.js,
# constantProduct.js), bn.js (the SDK's big-number dependency, which the curve computes with),
# decimal.js (the SDK's decimal dependency, for initialize's square root) and acorn (to take the
# curve out of the SDK's bundle; see sdk.mjs). The output is deterministic for a seed.
#
#   chain/solana/program/vectors/gen.sh            # writes cpmm_sdk_vectors.json beside this file
#   SEED=20 OUT=/tmp/v.json chain/solana/program/vectors/gen.sh
set -eu

SDK_VERSION=0.2.73-alpha
SDK_INTEGRITY=sha512-viAxQSNQE1dOPYLKxom+uzjgxNzKqUVCyYeW80APZRM1erjR8/XJSK5/zUoic4E3nCB+qVK9AwFqmMQDGmHeow==
BN_VERSION=5.2.5 # the newest bn.js in the SDK's range ^5.2.1
BN_INTEGRITY=sha512-Vq886eXykuP5E6HcKSSStP3bJgrE6In5WKxVUvJ8XGpWWYs2xZHWqUwzCtGgEtBcxyd57KBFDPFoUfNzdaHCNg==
DECIMAL_VERSION=10.6.0 # the newest decimal.js in the SDK's range ^10.4.2
DECIMAL_INTEGRITY=sha512-YpgQiITW3JXGntzdUmyUR1V812Hn8T1YVXhCu+wO3OpS4eU9l4YdD3qjyiKdV6mvV29zapkMeD390UVEf2lkUg==
ACORN_VERSION=8.15.0
ACORN_INTEGRITY=sha512-NZyJarBfL7nWwIq+FDL6Zp/yHEhePMNnnJ0y3qfieCrmNvYct8uvtiV41UvlSe6apAfk0fY1FbWx+NwfmpvtTg==

here=$(cd "$(dirname "$0")" && pwd)
SEED=${SEED:-20}
OUT=${OUT:-$here/cpmm_sdk_vectors.json}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# fetch NAME VERSION INTEGRITY DIR [FILE...]: npm pack NAME@VERSION, check it, unpack FILEs (or all)
fetch() {
  name=$1 version=$2 integrity=$3 dir=$4
  shift 4
  got=$(cd "$tmp" && npm pack --json --silent "$name@$version" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const [p] = JSON.parse(s); console.log(p.integrity + " " + p.filename);
    });')
  if [ "${got% *}" != "$integrity" ]; then
    echo "gen.sh: $name@$version: integrity ${got% *}, want $integrity" >&2
    exit 1
  fi
  mkdir -p "$tmp/$dir"
  if [ $# -gt 0 ]; then
    set -- $(for f in "$@"; do echo "package/$f"; done)
  fi
  tar -xzf "$tmp/${got#* }" -C "$tmp/$dir" --strip-components=1 "$@"
}

fetch @raydium-io/raydium-sdk-v2 "$SDK_VERSION" "$SDK_INTEGRITY" sdk \
  package.json lib/raydium/cpmm/curve/calculator.js lib/raydium/cpmm/curve/constantProduct.js
fetch bn.js "$BN_VERSION" "$BN_INTEGRITY" bn.js
fetch decimal.js "$DECIMAL_VERSION" "$DECIMAL_INTEGRITY" decimal.js
fetch acorn "$ACORN_VERSION" "$ACORN_INTEGRITY" acorn

meta=$(printf '{"@raydium-io/raydium-sdk-v2":{"version":"%s","integrity":"%s"},"bn.js":{"version":"%s","integrity":"%s"},"decimal.js":{"version":"%s","integrity":"%s"},"acorn":{"version":"%s","integrity":"%s"}}' \
  "$SDK_VERSION" "$SDK_INTEGRITY" "$BN_VERSION" "$BN_INTEGRITY" "$DECIMAL_VERSION" "$DECIMAL_INTEGRITY" "$ACORN_VERSION" "$ACORN_INTEGRITY")

node "$here/gen.mjs" --sdk "$tmp/sdk" --bn "$tmp/bn.js" --decimal "$tmp/decimal.js" --acorn "$tmp/acorn" \
  --seed "$SEED" --meta "$meta" --out "$OUT"
