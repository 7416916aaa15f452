#!/usr/bin/env bash
# Side-by-side timing of Pascal Pons' Connect Four solver and kibitz on the
# same positions, plus a line-by-line check that their column scores agree.
#
# Pons' solver is an external reference (AGPL-3.0); its code is NOT part of
# kibitz and must stay outside this repository. To get it:
#     git clone https://github.com/PascalPons/connect4 /some/dir/connect4
#     cd /some/dir/connect4 && make          # builds ./c4solver (needs g++)
# The reference data in benches/connect_four_positions.txt was made with
# commit d6ba50d8aaf2308c769d9bf2abd42d90f34baf41, without an opening book.
#
# Usage:
#     scripts/bench-connect-four.sh [C4SOLVER] [KIBITZ_BIN] [POSITIONS]
#   C4SOLVER    path to c4solver       (or env PONS_C4SOLVER; required)
#   KIBITZ_BIN  path to kibitz binary  (or env KIBITZ_BIN; default target/release/kibitz)
#   POSITIONS   positions file         (or env BENCH_POSITIONS;
#                                       default benches/connect_four_positions.txt)
#   env RUNS    runs per command when hyperfine is installed (default 1)
#
# Only the first field (the column string) of each non-# line is fed to
# both programs. Pons runs in an empty temp directory, so it cannot find a
# 7x6.book opening book (matching how the reference data was produced).
# Commands timed:
#     c4solver -a < moves
#     "$KIBITZ_BIN" connect-four-scores < moves
# Full columns: Pons prints -1000; "-1000" and "full" are treated as equal.
# Exit status: 0 if every line agrees, 1 on a mismatch or failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pons="${1:-${PONS_C4SOLVER:-}}"
kibitz="${2:-${KIBITZ_BIN:-$root/target/release/kibitz}}"
positions="${3:-${BENCH_POSITIONS:-$root/benches/connect_four_positions.txt}}"
runs="${RUNS:-1}"

die() { echo "bench-connect-four: $*" >&2; exit 1; }
[[ -n "$pons" ]] || die "give the c4solver path as argument 1 or PONS_C4SOLVER"
[[ -x "$pons" ]] || die "c4solver not executable: $pons"
[[ -x "$kibitz" ]] || die "kibitz binary not executable: $kibitz"
[[ -r "$positions" ]] || die "positions file not readable: $positions"
pons="$(cd "$(dirname "$pons")" && pwd)/$(basename "$pons")"
kibitz="$(cd "$(dirname "$kibitz")" && pwd)/$(basename "$kibitz")"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/nobook"
grep -v '^#' "$positions" | awk 'NF { print $1 }' > "$tmp/moves"
n="$(wc -l < "$tmp/moves")"
[[ "$n" -gt 0 ]] || die "no positions in $positions"

pons_cmd="cd '$tmp/nobook' && '$pons' -a < '$tmp/moves' > '$tmp/pons.out' 2> '$tmp/pons.err'"
kibitz_cmd="'$kibitz' connect-four-scores < '$tmp/moves' > '$tmp/kibitz.out' 2> '$tmp/kibitz.err'"

now() { date +%s.%N; }
time_one() { # time_one CMD -> prints seconds
    local t0 t1
    t0="$(now)"
    bash -c "$1" || { echo "bench-connect-four: command failed: $1" >&2; cat "$tmp"/*.err >&2; return 1; }
    t1="$(now)"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

echo "positions: $n from $positions"
if command -v hyperfine > /dev/null 2>&1; then
    echo "timing with hyperfine ($runs run(s) each)"
    hyperfine --runs "$runs" --export-json "$tmp/hf.json" \
        -n pons "$pons_cmd" -n kibitz "$kibitz_cmd" >&2
    mapfile -t means < <(grep -o '"mean": *[0-9.eE+-]*' "$tmp/hf.json" | awk '{ print $2 }')
    [[ "${#means[@]}" -eq 2 ]] || die "could not read hyperfine results"
    t_pons="$(awk -v x="${means[0]}" 'BEGIN { printf "%.3f", x }')"
    t_kibitz="$(awk -v x="${means[1]}" 'BEGIN { printf "%.3f", x }')"
else
    echo "timing with date +%s.%N (1 run each; install hyperfine for repeated runs)"
    t_pons="$(time_one "$pons_cmd")"
    t_kibitz="$(time_one "$kibitz_cmd")"
fi

awk -v p="$t_pons" -v k="$t_kibitz" -v n="$n" 'BEGIN {
    printf "pons   %10.3f s  (%.4f s/position)\n", p, p / n
    printf "kibitz %10.3f s  (%.4f s/position)\n", k, k / n
    if (p > 0) printf "ratio kibitz/pons: %.3f\n", k / p
}'

# Line-by-line comparison of "<moves> s1..s7"; -1000 and "full" are equal.
awk -v np="$tmp/pons.out" -v nk="$tmp/kibitz.out" -v nm="$tmp/moves" '
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
            if (bad < 20) printf "MISMATCH line %d (%s)\n  pons:   %s\n  kibitz: %s\n", line, mv, p, k
            bad++
        }
    }
    if ((getline k < nk) > 0) { print "kibitz printed extra lines"; bad++ }
    if (bad) { printf "FAIL: %d of %d lines differ\n", bad, line; exit 1 }
    printf "OK: all %d lines agree\n", line
}'
