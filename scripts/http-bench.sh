#!/usr/bin/env bash
# Throughput of the hot endpoints against /healthz on the same server, in one
# run: builds the release binary, starts it on a free port, runs wrk (Debian's
# package) for each endpoint, prints requests/s and the ratio to /healthz.
# Usage: scripts/http-bench.sh [seconds per endpoint, default 10]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk"; exit 1; }
cargo build --release --locked -q
bin="${CARGO_TARGET_DIR:-target}/release/kibitz"
data=$(mktemp -d)
port=18181
"$bin" serve --bind "127.0.0.1:$port" --data-dir "$data" --log warn &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 120); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

post() { # lua script for a JSON POST
  printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$1" > "$data/$2.lua"
  echo "$data/$2.lua"
}
run() { # name path [lua]
  local out
  if [ -n "${3:-}" ]; then out=$(wrk -t1 -c32 -d"${secs}s" -s "$3" "http://127.0.0.1:$port$2"); else out=$(wrk -t1 -c32 -d"${secs}s" "http://127.0.0.1:$port$2"); fi
  local non2xx
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
  echo "$out" | awk -v name="$1" -v bad="${non2xx:-0}" '/Requests\/sec/ {printf "%-22s %10.0f req/s  (non-2xx: %s)\n", name, $2, bad}'
  echo "$out" | awk '/Requests\/sec/ {print $2}' > "$data/$1.rps"
}

pig=$(post '{"my_score": 37, "opponent_score": 54, "turn_total": 12}' pig)
ttt=$(post '{"board": ["X..", ".O.", "..."]}' ttt)
ishi=$(post '{"remaining": "18446744073709551615", "take": [1, 3, 4]}' ishi)
# Warm the caches once, as the runs measure warm answers.
curl -fsS -H 'Content-Type: application/json' -d '{"board": ["X..", ".O.", "..."]}' "http://127.0.0.1:$port/tictactoe/move" >/dev/null
curl -fsS -H 'Content-Type: application/json' -d '{"remaining": 5, "take": [1, 3, 4]}' "http://127.0.0.1:$port/ishitori/move" >/dev/null

run healthz /healthz
run pig_decision /pig/decision "$pig"
run tictactoe_move /tictactoe/move "$ttt"
run ishitori_move /ishitori/move "$ishi"
base=$(cat "$data/healthz.rps")
for name in pig_decision tictactoe_move ishitori_move; do
  awk -v n="$name" -v r="$(cat "$data/$name.rps")" -v b="$base" 'BEGIN {printf "%-22s %.2f of /healthz\n", n, r / b}'
done
