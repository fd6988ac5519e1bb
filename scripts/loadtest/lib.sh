# Sourced by the load test scripts (run.sh, solana-quote.sh, profile.sh): a temp directory DIR,
# removed on exit with every process whose pid is in PIDS; free_port; cpu_ticks; wait_http;
# start_partnerd.
# Usage: . scripts/loadtest/lib.sh NAME (DIR is /tmp/partnerd-NAME.XXXXXX).

DIR=$(mktemp -d "/tmp/partnerd-$1.XXXXXX")
PIDS=()
cleanup() {
	local pid
	for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
	rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# free_port prints a loopback TCP port nothing listens on.
free_port() {
	local port
	while :; do
		port=$((20000 + RANDOM % 40000))
		if ! ss -Hltn "sport = :$port" | grep -q .; then
			echo "$port"
			return
		fi
	done
}

# cpu_ticks PID...: the CPU time (user and system, in clock ticks) the processes have used.
cpu_ticks() {
	local pid sum=0
	for pid in "$@"; do
		sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
	done
	echo "$sum"
}

# wait_http URL [HEADER]: until URL answers 200 (WAIT_SECONDS, default 30, at most).
wait_http() {
	for _ in $(seq $((${WAIT_SECONDS:-30} * 10))); do
		if curl -fsS -o /dev/null ${2:+-H "$2"} "$1" 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	echo "no answer from $1" >&2
	return 1
}

# start_partnerd NAME BINARY SCOPES [PATH]: BINARY serving local mode on its own temp SQLite and free
# ports (PARTNER_* settings in the environment apply), a consumer with SCOPES (comma-separated) and
# a rate per minute and burst of RPM and BURST (default 1,000,000 each), and a key of it; waits
# until PATH, when given, answers 200 with the key. Sets ADDR_<NAME>, KEY_<NAME> and PID_<NAME>.
start_partnerd() {
	local name=$1 bin=$2 scopes=$3 path=${4:-} addr db consumer key
	addr="127.0.0.1:$(free_port)"
	db="sqlite:$DIR/$name.db"
	echo "starting $name ($bin) on $addr (local mode, $db)" >&2
	PARTNER_DATABASE_URL=$db PARTNER_ADDR=$addr PARTNER_DEVNET_ADDR="127.0.0.1:$(free_port)" \
		"$bin" serve >"$DIR/$name.log" 2>&1 &
	PIDS+=($!)
	printf -v "PID_$name" %s "$!"
	wait_http "http://$addr/readyz" || { cat "$DIR/$name.log" >&2; exit 1; }
	consumer=$(PARTNER_DATABASE_URL=$db "$bin" consumer create --name "$name" --scopes "$scopes" --rpm "${RPM:-1000000}" --burst "${BURST:-1000000}" --enable | jq -r .id)
	key=$(PARTNER_DATABASE_URL=$db "$bin" key create --consumer "$consumer" --name k | jq -r .key)
	if [ -n "$path" ]; then
		wait_http "http://$addr$path" "X-API-Key: $key" || { cat "$DIR/$name.log" >&2; exit 1; }
	fi
	printf -v "ADDR_$name" %s "$addr"
	printf -v "KEY_$name" %s "$key"
}
