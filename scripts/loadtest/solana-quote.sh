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
DIR=$(mktemp -d /tmp/partnerd-solana-quote.XXXXXX)
PID=
cleanup() {
	[ -n "$PID" ] && { kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
	rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port() { while :; do p=$((20000 + RANDOM % 40000)); ss -Hltn "sport = :$p" | grep -q . || { echo "$p"; return; }; done; }
wait_http() {
	for _ in $(seq 600); do
		curl -fsS -o /dev/null ${2:+-H "$2"} "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	echo "no answer from $1" >&2
	return 1
}

echo "building partnerd" >&2
go build -o "$DIR/partnerd" ./cmd/partnerd
ADDR="127.0.0.1:$(port)"
DB="sqlite:$DIR/p.db"
PARTNER_DATABASE_URL=$DB PARTNER_ADDR=$ADDR PARTNER_DEVNET_ADDR="127.0.0.1:$(port)" PARTNER_ACCESS_LOG=0 PARTNER_LOG_LEVEL=warn \
	"$DIR/partnerd" serve >"$DIR/partnerd.log" 2>&1 &
PID=$!
wait_http "http://$ADDR/readyz" || { cat "$DIR/partnerd.log" >&2; exit 1; }
CONSUMER=$(PARTNER_DATABASE_URL=$DB "$DIR/partnerd" consumer create --name loadtest --scopes market:read,quote:read --rpm 1000000 --burst 1000000 --enable | jq -r .id)
KEY=$(PARTNER_DATABASE_URL=$DB "$DIR/partnerd" key create --consumer "$CONSUMER" --name k | jq -r .key)
PRICE="http://$ADDR/v1/tokens/$AUR/price?chain=solana"
QUOTE="http://$ADDR/v1/quotes/swap?chain=solana&inputMint=$USDC&outputMint=$AUR&amount=1000000&slippageBps=50"
wait_http "$PRICE" "X-API-Key: $KEY" || { cat "$DIR/partnerd.log" >&2; exit 1; }
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
