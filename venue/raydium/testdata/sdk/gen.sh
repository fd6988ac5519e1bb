#!/bin/sh
# gen.sh regenerates ../sdk_instructions.json and ../sdk_layouts.json from the pinned
# @raydium-io/raydium-sdk-v2 (package.json, and package-lock.json for its whole dependency tree
# with each tarball's integrity). ../sdk_layouts.json also decodes ../accounts.json (accounts the
# local validator's program wrote; TestWriteAccounts refreshes it): see README.md.
#
# The SDK is installed with `npm ci --ignore-scripts` into a temporary directory, removed on exit:
# nothing is installed here or in the build, and no SDK code is committed (it is GPL-3.0).
#
#   venue/raydium/testdata/sdk/gen.sh
#   OUT_DIR=/tmp/x venue/raydium/testdata/sdk/gen.sh    # write elsewhere
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cp "$here/package.json" "$here/package-lock.json" "$tmp/"
(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --silent)
SDK_DIR="$tmp" node "$here/gen.mjs"
