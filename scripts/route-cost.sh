#!/usr/bin/env bash
# Instructions one request costs, counted by callgrind (repeatable, unlike
# wall time on a shared machine): examples/route_cost.rs sends N requests of
# a kind through the real router in process; the count with N minus the
# count with 0, over N, is one request. Prints /healthz, /pig/decision and
# their ratio. Needs valgrind (Debian's package).
# Usage: scripts/route-cost.sh [N, default 20000] [example binary]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-20000}
bin=${2:-}
command -v valgrind >/dev/null || { echo "needs valgrind: apt-get install valgrind"; exit 1; }
if [ -z "$bin" ]; then
  cargo build --release --locked -q --example route_cost
  bin="${CARGO_TARGET_DIR:-target}/release/examples/route_cost"
fi
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 | awk '/Collected/ {print $NF}'; }
per_request() { echo $(( ($(count "$1" "$n") - $(count "$1" 0)) / n )); }
healthz=$(per_request healthz)
pig=$(per_request pig)
echo "GET /healthz        $healthz instructions per request"
echo "POST /pig/decision  $pig instructions per request"
awk -v h="$healthz" -v p="$pig" 'BEGIN {printf "ratio (healthz / pig, as throughput would be): %.3f\n", h / p}'
