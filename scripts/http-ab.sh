#!/usr/bin/env bash
# Two (or more) server binaries side by side under wrk: in each round each
# binary serves /healthz and then /pig/decision, and the round's ratio of
# the two throughputs is printed per binary. Rounds alternate binaries so
# that a change in the machine's load hits both alike.
# Usage: SECS=5 ROUNDS=5 scripts/http-ab.sh BIN_BEFORE BIN_AFTER
set -euo pipefail
secs=${SECS:-5}
rounds=${ROUNDS:-5}
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk"; exit 1; }
lua=$(mktemp)
trap 'rm -f "$lua"' EXIT
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[{"my_score": 37, "opponent_score": 54, "turn_total": 12}]]\n' > "$lua"
port=18191
for r in $(seq "$rounds"); do
  for bin in "$@"; do
    data=$(mktemp -d)
    "$bin" serve --bind "127.0.0.1:$port" --data-dir "$data" --log error &
    pid=$!
    for _ in $(seq 120); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
    h=$(wrk -t1 -c32 -d"${secs}s" "http://127.0.0.1:$port/healthz" | awk '/Requests\/sec/ {print $2}')
    p=$(wrk -t1 -c32 -d"${secs}s" -s "$lua" "http://127.0.0.1:$port/pig/decision" | awk '/Requests\/sec/ {print $2}')
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    rm -rf "$data"
    awk -v b="$bin" -v h="$h" -v p="$p" -v r="$r" \
      'BEGIN {printf "round %d  %-28s healthz %8.0f  pig %8.0f  ratio %.3f\n", r, b, h, p, p / h}'
  done
done
