#!/usr/bin/env bash
# make loadtest-solana-quote: Solana swap quotes through the real binary against the cached price
# read, in one run, with wrk (-t1, CONNS connections, bounded runs) on loopback:
#
#   (a) GET /v1/tokens/<AUR>/price?chain=solana: the snapshot's cached price (no RPC);
#   (b) GET /v1/quotes/swap?chain=solana (USDC to AUR): one getMultipleAccounts of 44 accounts to
#       the local validator per quote, CPMM's exact math over every candidate route, the seal.
#
# partnerd runs in local mode on a temp SQLite, access log off; the validator's background trader
# keeps trading. Prints req/s of each and the ratio. Environment: DURATION (default 10s), WARMUP
# (default 2s), CONNS (default 8).
set -euo pipefail

cd "$(dirname "$0")/../.."
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-2s}
CONNS=${CONNS:-8}
AUR=3QkfvpabHMF9CzxkvjQvHKR8mMcWTDnB2mnSa8sVZz7J
USDC=95TkvMZoHP9tNNv4ZsEfrT47ZYEnpWVpMcciPyEa9Yfx

command -v wrk >/dev/null || { echo "installing wrk (Debian package)" >&2; apt-get install -y wrk >/dev/null; }
. scripts/loadtest/lib.sh solana-quote
export WAIT_SECONDS=60 # the local validator starts with the binary

echo "building partnerd" >&2
go build -o "$DIR/partnerd" ./cmd/partnerd
PRICE_PATH="/v1/tokens/$AUR/price?chain=solana"
QUOTE_PATH="/v1/quotes/swap?chain=solana&inputMint=$USDC&outputMint=$AUR&amount=1000000&slippageBps=50"
PARTNER_ACCESS_LOG=0 PARTNER_LOG_LEVEL=warn start_partnerd quote "$DIR/partnerd" market:read,quote:read "$PRICE_PATH"
KEY=$KEY_quote
PRICE="http://$ADDR_quote$PRICE_PATH"
QUOTE="http://$ADDR_quote$QUOTE_PATH"
wait_http "$QUOTE" "X-API-Key: $KEY"

bench() {
	timeout 60 wrk -t1 -c"$CONNS" -d"$WARMUP" -H "X-API-Key: $KEY" "$2" >/dev/null
	local out
	out=$(timeout 120 wrk -t1 -c"$CONNS" -d"$DURATION" --latency -H "X-API-Key: $KEY" "$2")
	echo "$out" | grep -E "Non-2xx" && { echo "$1: non-2xx answers" >&2; exit 1; }
	echo "$out" | awk -v n="$1" '/Requests\/sec/ {rps=$2} /50%/ {p50=$2} /99%/ {p99=$2} END {printf "%-14s %10.0f req/s  p50 %s  p99 %s\n", n, rps, p50, p99; print rps > "/dev/stderr"}' 2>"$DIR/$1.rps"
}
bench cached-price "$PRICE"
bench solana-quote "$QUOTE"
awk -v a="$(cat "$DIR/cached-price.rps")" -v b="$(cat "$DIR/solana-quote.rps")" 'BEGIN {printf "quote/cached-price: %.3f\n", b / a}'
