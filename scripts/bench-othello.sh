#!/usr/bin/env bash
# FFO endgame positions solved exactly by kibitz and by Edax, side by side:
# one thread each, the same hash table size (2^BITS entries), the same
# positions (src/games/othello/tests/data/othello_ffo_40_49.txt, #FIRST to #LAST).
#
#   scripts/bench-othello.sh [FIRST] [LAST] [BITS]     (default 40 44 22)
#
# Edax is built outside this repository from its public source
# (github.com/abulmo/edax-reversi; `make build CC=gcc ARCH=x86-64` in src/,
# the instruction set kibitz's default target uses). EDAX points at the
# binary (default /work/peers/edax/bin/lEdax-x86-64). Its evaluation
# weights are a separate download; without them the script writes a weight
# file of zeros in the format Edax's loader reads: exact scores stay right,
# its move ordering (which uses the evaluation) gets worse.
set -euo pipefail

FIRST=${1:-40}
LAST=${2:-44}
BITS=${3:-22}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
EDAX=${EDAX:-/work/peers/edax/bin/lEdax-x86-64}
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
EVAL=${EDAX_EVAL:-$WORK/zero-eval.dat}

if [ ! -f "$EVAL" ]; then
    # Header: "EDAX" "EVAL" magic words, version, release, build, a double
    # date; then 61 plies of 114364 16-bit weights, all zero.
    { printf 'XADELAVE\004\000\000\000\004\000\000\000\000\000\000\000'; head -c 8 /dev/zero; head -c $((61 * 114364 * 2)) /dev/zero; } > "$EVAL"
fi

# The positions in Edax's .obf format: the board, the side to move.
awk -v f="$FIRST" -v l="$LAST" '!/^#/ && $1 >= f && $1 <= l { print $2 " " $3 ";" }' \
    "$ROOT/src/games/othello/tests/data/othello_ffo_40_49.txt" > "$WORK/ffo.obf"

cargo build --release --quiet --example othello_ffo --manifest-path "$ROOT/Cargo.toml"
KIBITZ="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/othello_ffo"

echo "== kibitz (FFO #$FIRST-#$LAST, 2^$BITS table entries, one thread)"
/usr/bin/time -f "cpu %U s" -o "$WORK/kibitz.time" "$KIBITZ" "$FIRST" "$LAST" "$BITS" | tee "$WORK/kibitz.out"
cat "$WORK/kibitz.time"

echo "== Edax (same positions, -h $BITS -n 1, zero weights)"
/usr/bin/time -f "cpu %U s" -o "$WORK/edax.time" "$EDAX" -solve "$WORK/ffo.obf" -n 1 -h "$BITS" \
    -eval-file "$EVAL" -book-usage off 2>&1 | tee "$WORK/edax.out" | grep -E '^ *[0-9]+\||nodes in'
cat "$WORK/edax.time"

KIBITZ_WALL=$(awk '/^total/ { print $2 }' "$WORK/kibitz.out")
KIBITZ_NODES=$(awk '/^total/ { print $3 }' "$WORK/kibitz.out")
KIBITZ_CPU=$(awk '{ print $2 }' "$WORK/kibitz.time")
EDAX_CPU=$(awk '{ print $2 }' "$WORK/edax.time")
# Edax's summary: "... N nodes in m:ss.sss (cpu = ...) (x nodes/s)".
EDAX_NODES=$(grep 'nodes in' "$WORK/edax.out" | sed -E 's/.*: ([0-9]+) nodes in.*/\1/')
EDAX_WALL=$(grep 'nodes in' "$WORK/edax.out" | sed -E 's/.*nodes in +([0-9]+):([0-9.]+).*/\1 \2/' | awk '{ print $1 * 60 + $2 }')

awk -v kw="$KIBITZ_WALL" -v kc="$KIBITZ_CPU" -v kn="$KIBITZ_NODES" \
    -v ew="$EDAX_WALL" -v ec="$EDAX_CPU" -v en="$EDAX_NODES" 'BEGIN {
    printf "\n%-8s %10s %10s %14s %12s\n", "", "wall s", "cpu s", "nodes", "Mnodes/s";
    printf "%-8s %10.3f %10.2f %14d %12.2f\n", "kibitz", kw, kc, kn, kn / kc / 1e6;
    printf "%-8s %10.3f %10.2f %14d %12.2f\n", "Edax", ew, ec, en, en / ec / 1e6;
    printf "Edax time / kibitz time: %.2f (wall), %.2f (cpu)\n", ew / kw, ec / kc;
}'
