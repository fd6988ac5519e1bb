#!/usr/bin/env bash
# make loadtest: partnerd's whole pipeline against a bare net/http handler and nginx as a classic
# gateway, side by side in one run on this machine, with wrk (-t1 -c32, bounded runs).
#
#   (a) partnerd, local mode on a temp SQLite, access log and devnet trader off: an authenticated
#       cached price read, GET /v1/tokens/<AUR>/price?chain=base with X-API-Key (key, policy,
#       admission and usage all run);
#   (b) a bare net/http handler answering the same bytes (scripts/loadtest/bare);
#   (c) nginx as a classic gateway: the key checked in a map, limit_req with the consumer's rate and
#       burst, proxied to (b) over keepalive connections;
#   (d) nginx answering the same bytes from a file;
#   (g) HAProxy as a second classic gateway: the key checked in a map, a per-consumer rate limit in
#       a stick table, proxied to (b) over keepalive connections (scripts/loadtest/haproxy.cfg.tmpl);
#   (h) the fixed stack's own cost: the same read registered with Huma on chi as partnerd registers
#       it, answering the same bytes with none of the pipeline (scripts/loadtest/humachi), the most
#       any pipeline on this stack could answer;
#   (e) partnerd as (a) with its admission in Redis (a private redis-server on a free port): req/s
#       against (a), and Redis round trips per call (the scripts Redis ran, EVALSHA and EVAL in
#       INFO commandstats, over the run: the limiter sends nothing else);
#   (f) the usage writer alone: BenchmarkUsageWriter's recorder runs on SQLite and PostgreSQL
#       (the machine's server), rows/s, and each one's headroom over the pipeline's req/s in (a).
#
# Prints req/s of each (the median of ROUNDS rounds that measure (a) to (d), (g) and (h) in turn,
# and each round's figure), the median CPU a call of the processes that served it (a gateway's with
# the bare handler's behind it; read from /proc, so wrk's own share of the CPUs does not move it),
# the ratios of the medians pipeline/nginx-gateway, pipeline/HAProxy-gateway and pipeline/bare, and
# the same ratios of (h), the ceiling of the pipeline's on this machine.
# Environment: ROUNDS (default 3),
# DURATION (wrk -d, default 10s), WARMUP (default 2s), CONNS (default 32), THREADS (default 1);
# PARTNERD_BIN: a partnerd binary to measure instead of building this checkout; BEFORE_BIN: another
# partnerd binary (say, a build of an earlier commit) measured in the same run, each on its own store.
set -euo pipefail

cd "$(dirname "$0")/../.."
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-2s}
CONNS=${CONNS:-32}
THREADS=${THREADS:-1}
ROUNDS=${ROUNDS:-3}
NGINX=${NGINX:-/usr/sbin/nginx}
HAPROXY=${HAPROXY:-/usr/sbin/haproxy}
AUR=0xfA172D7e20A062de8B89f8B03821e77072B141B3

if ! command -v wrk >/dev/null || [ ! -x "$NGINX" ] || [ ! -x "$HAPROXY" ]; then
	echo "installing wrk, nginx and haproxy (Debian packages)" >&2
	apt-get install -y wrk nginx haproxy >/dev/null
fi

. scripts/loadtest/lib.sh loadtest
chmod 755 "$DIR" # nginx workers (www-data) read body.json

PARTNERD=${PARTNERD_BIN:-$DIR/partnerd}
if [ -z "${PARTNERD_BIN:-}" ]; then
	echo "building partnerd" >&2
	go build -o "$PARTNERD" ./cmd/partnerd
fi
echo "building the bare handler and Huma on chi" >&2
go build -o "$DIR/bare" ./scripts/loadtest/bare
go build -o "$DIR/humachi" ./scripts/loadtest/humachi

BARE_PORT=$(free_port)
NGINX_PORT=$(free_port)
HAPROXY_PORT=$(free_port)
HUMACHI_PORT=$(free_port)
export PARTNER_DEVNET_TRADE_INTERVAL=0
export PARTNER_ACCESS_LOG=0
export PARTNER_LOG_LEVEL=${PARTNER_LOG_LEVEL:-warn}
RPM=1000000
BURST=1000000
PATH_Q="/v1/tokens/$AUR/price?chain=base"

start_partnerd pipeline "$PARTNERD" market:read "$PATH_Q"
REDIS_PORT=$(free_port)
redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$DIR" >"$DIR/redis.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
PARTNER_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0" start_partnerd redis "$PARTNERD" market:read "$PATH_Q"
if [ -n "${BEFORE_BIN:-}" ]; then
	start_partnerd before "$BEFORE_BIN" market:read "$PATH_Q"
fi
PARTNER_ADDR=$ADDR_pipeline
KEY=$KEY_pipeline
curl -fsS -H "X-API-Key: $KEY" -o "$DIR/body.json" "http://$PARTNER_ADDR$PATH_Q"
echo "partnerd answers ($(wc -c <"$DIR/body.json") bytes): $(cat "$DIR/body.json")" >&2

"$DIR/bare" -addr "127.0.0.1:$BARE_PORT" -body "$DIR/body.json" >"$DIR/bare.log" 2>&1 &
PIDS+=($!)
BARE_PID=$!
wait_http "http://127.0.0.1:$BARE_PORT$PATH_Q"

# Huma on chi answers what partnerd answered, byte for byte, as partnerd makes it.
"$DIR/humachi" -addr "127.0.0.1:$HUMACHI_PORT" -body "$DIR/body.json" >"$DIR/humachi.log" 2>&1 &
PIDS+=($!)
HUMACHI_PID=$!
wait_http "http://127.0.0.1:$HUMACHI_PORT$PATH_Q" || { cat "$DIR/humachi.log" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$HUMACHI_PORT$PATH_Q" | cmp - "$DIR/body.json" ||
	{ echo "Huma on chi does not answer partnerd's bytes" >&2; exit 1; }

mkdir -p "$DIR/nginx-body" "$DIR/nginx-proxy" "$DIR/nginx-fastcgi" "$DIR/nginx-uwsgi" "$DIR/nginx-scgi"
sed -e "s|@DIR@|$DIR|g" -e "s|@KEY@|$KEY|g" -e "s|@RPM@|$RPM|g" -e "s|@BURST@|$BURST|g" \
	-e "s|@BARE@|127.0.0.1:$BARE_PORT|g" -e "s|@NGINX@|127.0.0.1:$NGINX_PORT|g" \
	scripts/loadtest/nginx.conf.tmpl >"$DIR/nginx.conf"
"$NGINX" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/nginx-error.log" 2>>"$DIR/nginx-error.log" &
PIDS+=($!)
NGINX_PID=$!
wait_http "http://127.0.0.1:$NGINX_PORT$PATH_Q" "X-API-Key: $KEY" || { cat "$DIR/nginx-error.log" >&2; exit 1; }
# The gateway refuses a wrong key, as partnerd does.
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: wrong" "http://127.0.0.1:$NGINX_PORT$PATH_Q")
[ "$code" = 401 ] || { echo "nginx gateway answered $code to a wrong key, want 401" >&2; exit 1; }
mapfile -t NGINX_PIDS < <(echo "$NGINX_PID"; pgrep -P "$NGINX_PID")

echo "$KEY 1" >"$DIR/keys.map"
sed -e "s|@DIR@|$DIR|g" -e "s|@RPM@|$RPM|g" -e "s|@NPROC@|$(nproc)|g" \
	-e "s|@BARE@|127.0.0.1:$BARE_PORT|g" -e "s|@HAPROXY@|127.0.0.1:$HAPROXY_PORT|g" \
	scripts/loadtest/haproxy.cfg.tmpl >"$DIR/haproxy.cfg"
"$HAPROXY" -db -f "$DIR/haproxy.cfg" >"$DIR/haproxy.log" 2>&1 &
PIDS+=($!)
HAPROXY_PID=$!
wait_http "http://127.0.0.1:$HAPROXY_PORT$PATH_Q" "X-API-Key: $KEY" || { cat "$DIR/haproxy.log" >&2; exit 1; }
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: wrong" "http://127.0.0.1:$HAPROXY_PORT$PATH_Q")
[ "$code" = 401 ] || { echo "HAProxy gateway answered $code to a wrong key, want 401" >&2; exit 1; }

# bench NAME URL [HEADER [PID...]]: a warmup, then the measured wrk run; prints req/s. With PIDs
# (the processes that serve the run), it also appends to $DIR/cpu-NAME the CPU they used in the
# run, in microseconds a call.
bench() {
	local name=$1 url=$2 hdr=${3:-} out ticks
	shift $(($# < 3 ? $# : 3))
	if [ "$WARMUP" != 0s ]; then
		timeout 60 wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" ${hdr:+-H "$hdr"} "$url" >/dev/null
	fi
	ticks=$(cpu_ticks "$@")
	out=$(timeout 60 wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" ${hdr:+-H "$hdr"} "$url")
	ticks=$(($(cpu_ticks "$@") - ticks))
	echo "$out" >"$DIR/wrk-$name.txt"
	if grep -q "Non-2xx" <<<"$out"; then
		echo "$name: $(grep Non-2xx <<<"$out")" >&2
		echo "$out" >&2
		exit 1
	fi
	if [ $# -gt 0 ]; then
		awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" '/requests in/ {printf "%.1f\n", t / hz * 1e6 / $1}' <<<"$out" >>"$DIR/cpu-$name"
	fi
	awk '/^Requests\/sec:/ {print $2}' <<<"$out"
}

# median prints the median of its arguments.
median() {
	printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# The pipeline, the baselines and the gateways are measured in turn, ROUNDS times, and each figure
# is the median of its rounds: one 10 s run moves by up to a fifth on this 2-core machine.
echo "measuring: $ROUNDS rounds of wrk -t$THREADS -c$CONNS -d$DURATION each (after a $WARMUP warmup), on $(nproc) CPUs" >&2
declare -a P_RUNS BEFORE_RUNS B_RUNS G_RUNS H_RUNS S_RUNS F_RUNS
for _ in $(seq "$ROUNDS"); do
	P_RUNS+=("$(bench pipeline "http://$PARTNER_ADDR$PATH_Q" "X-API-Key: $KEY" "$PID_pipeline")")
	if [ -n "${BEFORE_BIN:-}" ]; then
		BEFORE_RUNS+=("$(bench before "http://$ADDR_before$PATH_Q" "X-API-Key: $KEY_before" "$PID_before")")
	fi
	B_RUNS+=("$(bench bare "http://127.0.0.1:$BARE_PORT$PATH_Q" "" "$BARE_PID")")
	G_RUNS+=("$(bench nginx-gateway "http://127.0.0.1:$NGINX_PORT$PATH_Q" "X-API-Key: $KEY" "${NGINX_PIDS[@]}" "$BARE_PID")")
	H_RUNS+=("$(bench haproxy-gateway "http://127.0.0.1:$HAPROXY_PORT$PATH_Q" "X-API-Key: $KEY" "$HAPROXY_PID" "$BARE_PID")")
	S_RUNS+=("$(bench nginx-static "http://127.0.0.1:$NGINX_PORT/static" "" "${NGINX_PIDS[@]}")")
	F_RUNS+=("$(bench humachi "http://127.0.0.1:$HUMACHI_PORT$PATH_Q" "" "$HUMACHI_PID")")
done
P=$(median "${P_RUNS[@]}")
B=$(median "${B_RUNS[@]}")
G=$(median "${G_RUNS[@]}")
H=$(median "${H_RUNS[@]}")
S=$(median "${S_RUNS[@]}")
F=$(median "${F_RUNS[@]}")
if [ -n "${BEFORE_BIN:-}" ]; then
	BEFORE=$(median "${BEFORE_RUNS[@]}")
fi
redis_scripts() {
	redis-cli -p "$REDIS_PORT" info commandstats | tr -d '\r' |
		awk -F'[:=,]' '/^cmdstat_(evalsha|eval):/ {n += $3} END {print n + 0}'
}
timeout 60 wrk -t"$THREADS" -c"$CONNS" -d"$WARMUP" -H "X-API-Key: $KEY_redis" "http://$ADDR_redis$PATH_Q" >/dev/null
C0=$(redis_scripts)
R=$(WARMUP=0s bench redis "http://$ADDR_redis$PATH_Q" "X-API-Key: $KEY_redis")
C1=$(redis_scripts)
RCALLS=$(awk '/requests in/ {print $1}' "$DIR/wrk-redis.txt")

# row NAME BENCH MEDIAN RUN...: a figure, the median of its runs, and the runs; then the median of
# the CPU a call its processes used in those runs (bench's cpu-BENCH file).
row() {
	local name=$1 cpu=$2 med=$3
	shift 3
	printf '%-34s %12.0f req/s (runs:%s), %5.1f us CPU a call\n' "$name" "$med" "$(printf ' %.0f' "$@")" \
		"$(median $(cat "$DIR/cpu-$cpu"))"
}
echo "CPU a call: that of the processes serving the run (a gateway's with the bare handler's behind it), not wrk's" >&2
row "partnerd pipeline (cached price)" pipeline "$P" "${P_RUNS[@]}"
row "bare net/http handler" bare "$B" "${B_RUNS[@]}"
row "nginx gateway (map + limit_req)" nginx-gateway "$G" "${G_RUNS[@]}"
row "HAProxy gateway (map + stick table)" haproxy-gateway "$H" "${H_RUNS[@]}"
row "nginx static" nginx-static "$S" "${S_RUNS[@]}"
row "Huma on chi, no pipeline" humachi "$F" "${F_RUNS[@]}"
if [ -n "${BEFORE_BIN:-}" ]; then
	row "before ($BEFORE_BIN)" before "$BEFORE" "${BEFORE_RUNS[@]}"
	awk -v p="$P" -v b="$BEFORE" 'BEGIN {printf "pipeline / before:          %.2f\n", p / b}'
fi
awk -v p="$P" -v r="$R" -v c="$((C1 - C0))" -v n="$RCALLS" 'BEGIN {
	printf "%-34s %12s req/s (/ in-process limiter: %.2f; Redis round trips per call: %.3f)\n", "pipeline, admission in Redis", r, r / p, c / n
}'
awk -v p="$P" -v g="$G" -v h="$H" -v b="$B" -v f="$F" 'BEGIN {
	printf "pipeline / nginx gateway:   %.2f (goal >= 1.25; Huma on chi with no pipeline: %.2f)\n", p / g, f / g
	printf "pipeline / HAProxy gateway: %.2f (goal >= 1.25; Huma on chi with no pipeline: %.2f)\n", p / h, f / h
	printf "pipeline / bare handler:    %.2f (goal >= 0.55; Huma on chi with no pipeline: %.2f)\n", p / b, f / b
	printf "pipeline / Huma on chi:     %.2f\n", p / f
}'

# The usage writer alone, each store in turn, against the pipeline's rate measured above.
echo "measuring the usage writer: BenchmarkUsageWriter recorder, 40 batches of MaxBatch (32,768) calls per store" >&2
go test ./metering/ -run '^$' -bench 'UsageWriter/(sqlite|postgres)/recorder$' -benchtime 40x >"$DIR/writer.txt" 2>&1 ||
	{ cat "$DIR/writer.txt" >&2; exit 1; }
awk -v p="$P" '/rows\/s/ {
	for (i = 1; i <= NF; i++) if ($(i + 1) == "rows/s") rows = $i
	split($1, name, "/")
	printf "usage writer, %-23s %12.0f rows/s (headroom over the pipeline: %.2f, goal >= 2)\n", name[2] ":", rows, rows / p
}' "$DIR/writer.txt"
