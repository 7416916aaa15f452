#!/usr/bin/env bash
# Side-by-side timing of kibitz and two external Connect Four solvers on the
# same positions: Pascal Pons' solver (required) and Christophe Steininger's
# c4 (optional, through a small driver), plus a line-by-line check that all
# their column scores agree. kibitz runs with --threads 1 and --threads 2.
#
# Both peers are external references whose code is NOT part of kibitz and
# must stay outside this repository (Pons: AGPL-3.0; c4: see its LICENSE).
#
# Pons' solver. To get it:
#     git clone https://github.com/PascalPons/connect4 /some/dir/connect4
#     cd /some/dir/connect4 && make          # builds ./c4solver (needs g++)
# The reference data in benches/connect_four_positions.txt and
# benches/connect_four_positions_60.txt was made with commit
# d6ba50d8aaf2308c769d9bf2abd42d90f34baf41, without an opening book.
# Pons' table (fixed at compile time) is about 40 MB.
#
# Christophe Steininger's c4 (optional; env C4_DRIVER). It has no command
# line for arbitrary positions, so it is timed through a ~50-line C++ driver
# that links c4's solver sources, reads one move string per line and prints
# "moves s1 ... s7" with s_c = -solve_strong(position after column c) and
# -1000 for a full column (c4's score_win_at(n) = 1 + (42 - n) / 2 is Pons'
# (43 - moves) / 2, so no conversion beyond the negation is needed; the
# table is kept across lines, as Pons and kibitz do). To get and build it:
#     git clone https://github.com/ChristopheSteininger/c4 /some/dir/c4
#     # in /some/dir/c4/src/solver/settings.h set (compile-time settings):
#     #   NUM_THREADS = 1                    (one search thread)
#     #   NUM_TABLE_ENTRIES = 8388617        (8-byte entries: 64 MB, as kibitz)
#     # write /some/dir/c4-driver/driver.cpp as described above, then
#     cd /some/dir/c4-driver && g++ -std=c++20 -O3 -flto -DNDEBUG -pthread \
#         -I/some/dir/c4/src -o c4-driver driver.cpp /some/dir/c4/src/solver/*.cpp \
#         /some/dir/c4/src/solver/parallel/*.cpp /some/dir/c4/src/solver/util/*.cpp
# (the same flags as c4's own CMake "optimise" preset). Measured with c4
# commit 80baa5315c90fcc4f1491e7fa66cf6db29462581.
#
# Usage:
#     scripts/bench-connect-four.sh [C4SOLVER] [KIBITZ_BIN] [POSITIONS]
#   C4SOLVER    path to Pons' c4solver (or env PONS_C4SOLVER; required)
#   KIBITZ_BIN  path to kibitz binary  (or env KIBITZ_BIN; default target/release/kibitz)
#   POSITIONS   positions file         (or env BENCH_POSITIONS;
#                                       default benches/connect_four_positions.txt)
#   env C4_DRIVER      path to the c4 driver described above (optional; skipped if unset)
#   env TABLE_ENTRIES  kibitz --table-entries (default 4194304: 16 bytes each = 64 MiB)
#   env RUNS           runs per command when hyperfine is installed (default 1)
#
# Only the first field (the column string) of each non-# line is fed to
# every program. Pons and c4 run in an empty temp directory, so they cannot
# find an opening book (7x6.book, data/book-7x6.csv); kibitz gets --no-book.
# Commands timed:
#     c4solver -a < moves
#     "$C4_DRIVER" < moves                                    (if C4_DRIVER is set)
#     "$KIBITZ_BIN" connect-four-scores --no-book --threads 1 --table-entries "$TABLE_ENTRIES" < moves
#     "$KIBITZ_BIN" connect-four-scores --no-book --threads 2 --table-entries "$TABLE_ENTRIES" < moves
# Full columns: Pons prints -1000; "-1000" and "full" are treated as equal.
# Every output is compared with Pons' line by line. Each timing first waits
# until no rustc or cargo process runs.
# Exit status: 0 if every line agrees, 1 on a mismatch or failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pons="${1:-${PONS_C4SOLVER:-}}"
kibitz="${2:-${KIBITZ_BIN:-$root/target/release/kibitz}}"
positions="${3:-${BENCH_POSITIONS:-$root/benches/connect_four_positions.txt}}"
c4="${C4_DRIVER:-}"
entries="${TABLE_ENTRIES:-4194304}"
runs="${RUNS:-1}"

die() { echo "bench-connect-four: $*" >&2; exit 1; }
[[ -n "$pons" ]] || die "give the c4solver path as argument 1 or PONS_C4SOLVER"
[[ -x "$pons" ]] || die "c4solver not executable: $pons"
[[ -x "$kibitz" ]] || die "kibitz binary not executable: $kibitz"
[[ -r "$positions" ]] || die "positions file not readable: $positions"
[[ -z "$c4" || -x "$c4" ]] || die "C4_DRIVER not executable: $c4"
pons="$(cd "$(dirname "$pons")" && pwd)/$(basename "$pons")"
kibitz="$(cd "$(dirname "$kibitz")" && pwd)/$(basename "$kibitz")"
[[ -z "$c4" ]] || c4="$(cd "$(dirname "$c4")" && pwd)/$(basename "$c4")"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/nobook"
grep -v '^#' "$positions" | awk 'NF { print $1 }' > "$tmp/moves"
n="$(wc -l < "$tmp/moves")"
[[ "$n" -gt 0 ]] || die "no positions in $positions"

# Programs in timing order: name and command (each writes $tmp/<name>.out).
names=(pons)
cmds=("cd '$tmp/nobook' && '$pons' -a < '$tmp/moves' > '$tmp/pons.out' 2> '$tmp/pons.err'")
if [[ -n "$c4" ]]; then
    names+=(c4)
    cmds+=("cd '$tmp/nobook' && '$c4' < '$tmp/moves' > '$tmp/c4.out' 2> '$tmp/c4.err'")
fi
for t in 1 2; do
    names+=("kibitz-t$t")
    cmds+=("'$kibitz' connect-four-scores --no-book --threads $t --table-entries '$entries' < '$tmp/moves' > '$tmp/kibitz-t$t.out' 2> '$tmp/kibitz-t$t.err'")
done

now() { date +%s.%N; }
wait_idle() { # a compile running beside the timings would distort them
    while pgrep -x rustc > /dev/null || pgrep -x cargo > /dev/null; do
        echo "bench-connect-four: waiting for rustc/cargo to finish" >&2
        sleep 10
    done
}
time_one() { # time_one CMD -> prints seconds
    local t0 t1
    wait_idle
    t0="$(now)"
    bash -c "$1" || { echo "bench-connect-four: command failed: $1" >&2; cat "$tmp"/*.err >&2; return 1; }
    t1="$(now)"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

echo "positions: $n from $positions"
echo "kibitz table: $entries entries (16 bytes each)"
declare -A secs
if command -v hyperfine > /dev/null 2>&1; then
    echo "timing with hyperfine ($runs run(s) each)"
    hf_args=()
    for i in "${!names[@]}"; do hf_args+=(-n "${names[$i]}" "${cmds[$i]}"); done
    wait_idle
    hyperfine --runs "$runs" --export-json "$tmp/hf.json" "${hf_args[@]}" >&2
    mapfile -t means < <(grep -o '"mean": *[0-9.eE+-]*' "$tmp/hf.json" | awk '{ print $2 }')
    [[ "${#means[@]}" -eq "${#names[@]}" ]] || die "could not read hyperfine results"
    for i in "${!names[@]}"; do
        secs[${names[$i]}]="$(awk -v x="${means[$i]}" 'BEGIN { printf "%.3f", x }')"
    done
else
    echo "timing with date +%s.%N (1 run each; install hyperfine for repeated runs)"
    for i in "${!names[@]}"; do
        secs[${names[$i]}]="$(time_one "${cmds[$i]}")"
    done
fi

for name in "${names[@]}"; do
    awk -v name="$name" -v s="${secs[$name]}" -v n="$n" \
        'BEGIN { printf "%-10s %10.3f s  (%.4f s/position)\n", name, s, s / n }'
done
for t in 1 2; do
    for ref in c4 pons; do
        [[ -n "${secs[$ref]:-}" ]] || continue
        awk -v k="${secs[kibitz-t$t]}" -v r="${secs[$ref]}" -v t="$t" -v ref="$ref" \
            'BEGIN { if (r > 0) printf "ratio kibitz-t%d/%s: %.3f\n", t, ref, k / r }'
    done
done

# Line-by-line comparison of "<moves> s1..s7" with Pons; -1000 and "full" are equal.
compare() { # compare NAME FILE -> 0 if FILE agrees with pons.out on every line
    awk -v np="$tmp/pons.out" -v nk="$2" -v nm="$tmp/moves" -v who="$1" '
function norm(line,   f, m, i, s) {
    m = split(line, f, /[ \t]+/)
    s = f[1]
    for (i = 2; i <= m; i++) s = s " " (f[i] == "-1000" ? "full" : f[i])
    return s
}
BEGIN {
    bad = 0; line = 0
    while ((getline mv < nm) > 0) {
        line++
        if ((getline p < np) <= 0) p = "<missing>"
        if ((getline k < nk) <= 0) k = "<missing>"
        sub(/\r$/, "", k)
        p = norm(p); k = norm(k)
        if (split(p, pf, " ") != 8 || pf[1] != mv) { p = "<bad pons line: " p ">" }
        if (p != k) {
            if (bad < 20) printf "MISMATCH %s line %d (%s)\n  pons:   %s\n  %-7s %s\n", who, line, mv, p, who ":", k
            bad++
        }
    }
    if ((getline k < nk) > 0) { print who " printed extra lines"; bad++ }
    if (bad) { printf "FAIL %s: %d of %d lines differ from pons\n", who, bad, line; exit 1 }
    printf "OK %s: all %d lines agree with pons\n", who, line
}'
}
status=0
for name in "${names[@]}"; do
    [[ "$name" == pons ]] && continue
    compare "$name" "$tmp/$name.out" || status=1
done
exit "$status"
