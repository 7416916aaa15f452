#!/usr/bin/env bash
# GET /matches/{id}/review of a finished 3x3 match against a single
# POST /tictactoe/move, side by side on one warm server in one run (issue
# 16: the review should answer in under 2x a move). Builds the release
# binary, starts it on a free port, plays a match to the end with curl, warms
# both endpoints, then runs wrk (Debian's package) on each in turn and prints
# requests/s, mean latency and their ratio.
# Usage: scripts/review-bench.sh [seconds per endpoint, default 10]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk"; exit 1; }
command -v jq >/dev/null || { echo "needs jq: apt-get install jq"; exit 1; }
cargo build --release --locked -q
bin="${CARGO_TARGET_DIR:-target}/release/kibitz"
data=$(mktemp -d)
port=18282
"$bin" serve --bind "127.0.0.1:$port" --data-dir "$data" --log warn &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 120); do curl -fsS "$base/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

# A 3x3 match, the person taking the first empty cell each turn.
match=$(curl -fsS -H 'Content-Type: application/json' -d '{"game": "tictactoe"}' "$base/matches")
id=$(echo "$match" | jq -r .id)
token=$(echo "$match" | jq -r .token)
while [ "$(echo "$match" | jq -r .status)" != finished ]; do
  move=$(echo "$match" | jq -c '.state.board | to_entries | map(select(.value | contains("."))) | first
    | {row: .key, col: (.value | index("."))}')
  ply=$(echo "$match" | jq .ply)
  match=$(curl -fsS -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"ply\": $ply, \"move\": $move}" "$base/matches/$id/moves")
done
echo "match $id finished after $(echo "$match" | jq .ply) plies: $(echo "$match" | jq -c .result)"

body='{"board": ["X..", ".O.", "..."]}'
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$body" > "$data/move.lua"
# Warm both (the review's first answer fills the cache of finished reviews).
curl -fsS -H 'Content-Type: application/json' -d "$body" "$base/tictactoe/move" >/dev/null
curl -fsS -H "Authorization: Bearer $token" "$base/matches/$id/review" >/dev/null

run() { # name, then wrk's arguments
  local name=$1
  shift
  local out
  out=$(wrk -t1 -c32 -d"${secs}s" --latency "$@")
  echo "$out" | awk -v name="$name" '
    /Non-2xx/ {bad = $NF}
    /Requests\/sec/ {rps = $2}
    /^    Latency/ {lat = $2}
    END {printf "%-22s %10.0f req/s  mean latency %s  (non-2xx: %s)\n", name, rps, lat, bad ? bad : 0}'
  echo "$out" | awk '/Requests\/sec/ {print $2}' > "$data/$name.rps"
}
run tictactoe_move -s "$data/move.lua" "$base/tictactoe/move"
run match_review -H "Authorization: Bearer $token" "$base/matches/$id/review"
awk -v m="$(cat "$data/tictactoe_move.rps")" -v r="$(cat "$data/match_review.rps")" \
  'BEGIN {printf "review time / move time = %.2f (requests/s %0.f vs %0.f)\n", m / r, r, m}'
