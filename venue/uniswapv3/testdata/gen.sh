#!/bin/sh
# gen.sh regenerates vectors.json from the official Uniswap V3 SDK: @uniswap/v3-sdk and its peer
# @uniswap/sdk-core, exact versions pinned in package.json (and package-lock.json for the whole
# dependency tree with each tarball's integrity). gen.mjs draws its cases from a seeded PRNG, so
# the output is the same on every run with the same SDK; a diff in vectors.json after
# regenerating means the SDK changed behaviour.
#
# The SDK is installed with `npm ci --ignore-scripts` into a temporary directory, removed on exit:
# nothing is installed here or in the build.
#
#   venue/uniswapv3/testdata/gen.sh
#   OUT=/tmp/vectors.json venue/uniswapv3/testdata/gen.sh    # write elsewhere
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cp "$here/package.json" "$here/package-lock.json" "$tmp/"
(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --silent)
SDK_DIR="$tmp" OUT="${OUT:-$here/vectors.json}" node "$here/gen.mjs"
