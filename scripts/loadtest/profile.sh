#!/usr/bin/env bash
# make pgo: the CPU profile Go's profile-guided optimization builds partnerd with
# (cmd/partnerd/default.pgo, used by every go build of the binary).
#
# It is taken from the workload of make loadtest, the pipeline every call goes through: partnerd in
# local mode on a temp SQLite (access log and devnet trader off) answering an authenticated cached
# price read, wrk -t1 -c32, with a PROFILE_SECONDS (default 30) CPU profile from the operator
# listener's pprof. The binary profiled is built from this checkout with the current profile, as Go
# recommends (a profile of an optimized build keeps the optimization stable). Not in make test.
set -euo pipefail

cd "$(dirname "$0")/../.."
PROFILE_SECONDS=${PROFILE_SECONDS:-30}
OUT=cmd/partnerd/default.pgo
AUR=0xfA172D7e20A062de8B89f8B03821e77072B141B3

command -v wrk >/dev/null || { echo "installing wrk (Debian package)" >&2; apt-get install -y wrk >/dev/null; }
. scripts/loadtest/lib.sh profile

echo "building partnerd" >&2
go build -o "$DIR/partnerd" ./cmd/partnerd
OPS="127.0.0.1:$(free_port)"
PATH_Q="/v1/tokens/$AUR/price?chain=base"
PARTNER_OPS_ADDR=$OPS PARTNER_DEVNET_TRADE_INTERVAL=0 PARTNER_ACCESS_LOG=0 PARTNER_LOG_LEVEL=warn \
	start_partnerd profile "$DIR/partnerd" market:read "$PATH_Q"
KEY=$KEY_profile
URL="http://$ADDR_profile$PATH_Q"

echo "profiling $PROFILE_SECONDS s under wrk -t1 -c32" >&2
timeout $((PROFILE_SECONDS + 60)) wrk -t1 -c32 -d$((PROFILE_SECONDS + 4))s -H "X-API-Key: $KEY" "$URL" >"$DIR/wrk.txt" &
WRK=$!
sleep 2
curl -fsS -o "$DIR/cpu.pprof" "http://$OPS/debug/pprof/profile?seconds=$PROFILE_SECONDS"
wait "$WRK"
if grep -q Non-2xx "$DIR/wrk.txt"; then cat "$DIR/wrk.txt" >&2; exit 1; fi
grep Requests/sec "$DIR/wrk.txt" >&2
mv "$DIR/cpu.pprof" "$OUT"
echo "wrote $OUT ($(wc -c <"$OUT") bytes)" >&2
