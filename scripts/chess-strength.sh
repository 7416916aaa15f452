#!/usr/bin/env bash
# Chess levels, each against the next: `kibitz arena` series of fast games
# (level:N as A against level:N+1, colours alternating, seed 1), two series
# at a time on a 2-core machine. Prints one line per pair: A's share of the
# points with its Wilson 95% interval, as the arena reports it.
#
#   scripts/chess-strength.sh [binary] [games per pair] [ms per move]
# Needs Stockfish (as the server finds it). Not run in CI: minutes of CPU.
set -euo pipefail
bin=${1:-target/release/kibitz}
games=${2:-200}
ms=${3:-20}
out=$(mktemp -d)
run_pair() {
  local a=$1
  local b=$((a + 1))
  "$bin" arena --game chess --a "level:$a" --b "level:$b" --games "$games" --max-ms "$ms" --seed 1 \
    > "$out/$a.txt" 2> "$out/$a.err" || { echo "level:$a against level:$b failed:"; cat "$out/$a.err"; } >&2
}
for a in 1 3 5 7 9; do
  run_pair "$a" &
  if [ "$a" -lt 9 ]; then run_pair $((a + 1)) & fi
  wait
done
echo "chess levels, $games games a pair, $ms ms a move, seed 1"
echo "| A | B | A wins | draws | A losses | A's share | 95% CI (Wilson) |"
echo "|---|---|---|---|---|---|---|"
for a in 1 2 3 4 5 6 7 8 9; do
  f="$out/$a.txt"
  wins=$(awk '$1 == "a" && $2 ~ /^level/ {print $3}' "$f")
  draws=$(awk '$1 == "a" && $2 ~ /^level/ {print $4}' "$f")
  losses=$(awk '$1 == "a" && $2 ~ /^level/ {print $5}' "$f")
  share=$(sed -n 's/.*share of the points: \([0-9.]*\) (95% CI \([0-9.]*\) to \([0-9.]*\).*/\1 \2 \3/p' "$f")
  read -r s lo hi <<< "$share"
  echo "| $a | $((a + 1)) | $wins | $draws | $losses | $s | $lo..$hi |"
done
rm -rf "$out"
