#!/usr/bin/env bash
# Load test: builds the release binary, starts it (or several replicas on one
# PostgreSQL), warms it up, then runs a mixed load with wrk over random valid
# states of every game plus match requests (scripts/load.lua), and prints
# requests/s, latency p50/p99, errors and the server's RSS after warm-up and
# after the run.
#
# Usage: scripts/load.sh [--seconds 60] [--connections 256] [--replicas N]
#                        [--database-url postgres://...]
# One replica uses SQLite in a temporary folder unless --database-url is
# given; several replicas need --database-url (they share the database).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60 connections=256 replicas=1 database_url=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --replicas) replicas=$2; shift 2 ;;
    --database-url) database_url=$2; shift 2 ;;
    *) echo "unknown argument $1"; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk"; exit 1; }
if [ "$replicas" -gt 1 ] && [ -z "$database_url" ]; then
  echo "several replicas share one database: pass --database-url postgres://..."; exit 2
fi

cargo build --release --locked -q
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

ports=()
for i in $(seq "$replicas"); do
  port=$((18480 + i))
  args=(serve --bind "127.0.0.1:$port" --data-dir "$work/data$i" --log warn)
  [ -n "$database_url" ] && args+=(--database-url "$database_url")
  # Under 256 connections searches queue for the pool; let them wait for a
  # worker instead of answering 503 (the default wait is 500 ms). The memos
  # are bounded at 200,000 entries (default 2,000,000) so that they reach
  # their bound during the warm-up and the RSS check compares steady states.
  KIBITZ_SEARCH_QUEUE_MS=10000 KIBITZ_MEMO_CAPACITY=${KIBITZ_MEMO_CAPACITY:-200000} \
    ./target/release/kibitz "${args[@]}" > "$work/server$i.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
done
for port in "${ports[@]}"; do
  for _ in $(seq 120); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
  curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null
done

# Matches for the GETs in the mix.
{
  echo "return {"
  for _ in $(seq 20); do
    created=$(curl -fsS -H 'Content-Type: application/json' -d '{"game":"ishitori","options":{"remaining":500}}' \
      "http://127.0.0.1:${ports[0]}/matches")
    id=$(echo "$created" | sed -E 's/.*"id":"([0-9a-f]+)".*/\1/')
    token=$(echo "$created" | sed -E 's/.*"token":"([0-9a-f]+)".*/\1/')
    echo "  { id = \"$id\", token = \"$token\" },"
  done
  echo "}"
} > "$work/matches.lua"
export KIBITZ_LOAD_MATCHES="$work/matches.lua"

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

# Runs wrk against every replica at once (connections split between them)
# and sums what they report.
run_load() { # seconds label
  local per=$((connections / replicas)) outs=() wrks=()
  for port in "${ports[@]}"; do
    local out="$work/wrk-$2-$port.txt"
    wrk -t2 -c"$per" -d"$1s" --latency -s scripts/load.lua "http://127.0.0.1:$port/" > "$out" 2>&1 &
    wrks+=($!)
    outs+=("$out")
  done
  for w in "${wrks[@]}"; do wait "$w"; done
  cat "${outs[@]}" | awk -v label="$2" '
    /Requests\/sec/ { rps += $2 }
    /^ +50%/ { p50 = p50 ? p50 "," $2 : $2 }
    /^ +99%/ { p99 = p99 ? p99 "," $2 : $2 }
    /Non-2xx/ { bad += $NF }
    /Socket errors/ { gsub(/,/, ""); err += $4 + $6 + $8 + $10 }
    END { printf "%-8s %8.0f req/s  p50 %s  p99 %s  non-2xx %d  socket errors %d\n", label, rps, p50, p99, bad, err }'
}

echo "kibitz load: $replicas replica(s), $connections connections, ${seconds}s, database: ${database_url:-SQLite (temporary)}"
echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM"
run_load 20 warm-up
warm=(); for p in "${pids[@]}"; do warm+=("$(rss_kib "$p")"); done
run_load "$seconds" load | tee "$work/result.txt"
after=(); for p in "${pids[@]}"; do after+=("$(rss_kib "$p")"); done
status=0
for i in "${!pids[@]}"; do
  ratio=$(awk -v a="${after[$i]}" -v w="${warm[$i]}" 'BEGIN { printf "%.2f", a / w }')
  echo "replica $((i + 1)) RSS: ${warm[$i]} KiB after warm-up, ${after[$i]} KiB after the run (x$ratio)"
  awk -v r="$ratio" 'BEGIN { exit !(r > 1.5) }' && { echo "RSS grew more than 1.5x"; status=1; }
done
if ! awk '{ exit !($(NF-3) == 0 && $NF == 0) }' "$work/result.txt"; then
  echo "errors during the run"; status=1
fi
exit $status
