#!/usr/bin/env bash
# The test command. Runs every test. Database tests run on SQLite always and
# on PostgreSQL when KIBITZ_TEST_DATABASE_URL names a server (each test makes
# a fresh database there); when it is unset and a server answers on
# 127.0.0.1:5432 it is used. The chess engine tests run against Stockfish,
# the xiangqi and shogi ones against Fairy-Stockfish and the backgammon ones
# against GNU Backgammon when installed.
#
# Every test binary runs even when one fails (--no-fail-fast), so one broken
# test does not hide the rest. Cargo's output shows as it comes and is kept
# in a temporary file, from which the script always ends with a summary: the
# totals, the failed tests by name, the binaries that failed, did not build
# or crashed, the process tests' binary, which databases and engines were
# tested, and last a line such as
#   tests: 728 passed, 0 failed, 2 ignored
# which CI tooling reads: keep it the last line and of that shape. The exit
# status is 0 only when cargo's was and no test failed.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${KIBITZ_TEST_DATABASE_URL:-}" ] && (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  export KIBITZ_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres"
fi

if [ -z "${KIBITZ_TEST_DATABASE_URL:-}" ]; then
  # No server: the PostgreSQL tests are skipped on purpose, and the last
  # line says so (without this they fail rather than pass unrun).
  export KIBITZ_TEST_POSTGRES=skip
fi

# Stockfish for the chess engine tests, where kibitz looks for it: on PATH,
# then in /usr/games (Debian's place) and /usr/local/games. Without one the
# engine tests are skipped on purpose, and the closing lines say so (without
# KIBITZ_TEST_STOCKFISH=skip they fail rather than pass unrun).
stockfish_bin=$(command -v stockfish || true)
for dir in /usr/games /usr/local/games; do
  if [ -z "$stockfish_bin" ] && [ -x "$dir/stockfish" ]; then stockfish_bin="$dir/stockfish"; fi
done
if [ -z "$stockfish_bin" ]; then
  export KIBITZ_TEST_STOCKFISH=skip
fi
# The same for Fairy-Stockfish, the xiangqi and shogi engine
# (KIBITZ_TEST_FAIRY_STOCKFISH=skip only when there is no binary).
fairy_bin=$(command -v fairy-stockfish || true)
for dir in /usr/games /usr/local/games; do
  if [ -z "$fairy_bin" ] && [ -x "$dir/fairy-stockfish" ]; then fairy_bin="$dir/fairy-stockfish"; fi
done
if [ -z "$fairy_bin" ]; then
  export KIBITZ_TEST_FAIRY_STOCKFISH=skip
fi
# The same for GNU Backgammon, backgammon's engine
# (KIBITZ_TEST_GNUBG=skip only when there is no binary).
gnubg_bin=$(command -v gnubg || true)
for dir in /usr/games /usr/local/games; do
  if [ -z "$gnubg_bin" ] && [ -x "$dir/gnubg" ]; then gnubg_bin="$dir/gnubg"; fi
done
if [ -z "$gnubg_bin" ]; then
  export KIBITZ_TEST_GNUBG=skip
fi

# The summary is read from cargo's output. These helpers each read the saved
# log; every awk program first drops carriage returns and colour codes, so a
# CARGO_TERM_COLOR=always run is read the same.

# "passed failed ignored filtered binaries failed_binaries", summed over
# every libtest closing line, "test result: ok. 5 passed; 0 failed; 2
# ignored; 0 measured; 0 filtered out; finished in 0.01s" (or FAILED.).
test_counts() {
  awk '
    { sub(/\r$/, ""); gsub(/\033\[[0-9;]*[A-Za-z]/, "") }
    /^test result: (ok|FAILED)\. [0-9]+ passed; [0-9]+ failed; [0-9]+ ignored; / {
      binaries++
      if ($3 == "FAILED.") failed_binaries++
      passed += $4; failed += $6; ignored += $8; filtered += $12
    }
    END { printf "%d %d %d %d %d %d\n", passed, failed, ignored, filtered, binaries, failed_binaries }
  ' "$1"
}

# The failed tests, one a line, "    name (target)", each once. libtest
# names them twice: "---- name stdout ----" above the output it captured
# (only when there was some), and in its closing list, "failures:" then
# "    name" lines up to a blank line (every failed one). The target is the
# source cargo named before running the binary ("Running tests/api.rs
# (target/debug/deps/api-...)", "Doc-tests kibitz"), so the same test name
# in two binaries is two entries and says where to rerun it.
failed_tests() {
  awk '
    function add(name,   key) {
      key = name " (" target ")"
      if (!(key in seen)) { seen[key] = 1; print "    " key }
    }
    { sub(/\r$/, ""); gsub(/\033\[[0-9;]*[A-Za-z]/, "") }
    /^ +Running .+ \(.+\)$/ {
      target = $0
      sub(/^ +Running (unittests )?/, "", target)
      sub(/ \(.*$/, "", target)
      listing = 0; next
    }
    /^ +Doc-tests [^ ]+$/ { target = "doc-tests " $2; listing = 0; next }
    /^---- .* stdout ----$/ {
      name = $0; sub(/^---- /, "", name); sub(/ stdout ----$/, "", name)
      add(name); next
    }
    /^failures:$/ { listing = 1; next }
    listing && /^    [^ ]/ { name = $0; sub(/^    /, "", name); add(name); next }
    { listing = 0 }
  ' "$1"
}

# What cargo said of binaries that failed, did not build or crashed, in its
# own words, each line once: "error: test failed, to rerun pass `--test
# api`", "error: could not compile ...", a crash's "process didn't exit
# successfully: ... (signal: 11, SIGSEGV ...)" and the closing "error: 2
# targets failed:" block with its "    `--lib`" lines.
failed_binaries() {
  awk '
    function add(line) {
      if (!(line in seen)) { seen[line] = 1; print "    " line }
    }
    { sub(/\r$/, ""); gsub(/\033\[[0-9;]*[A-Za-z]/, "") }
    /^error: [0-9]+ targets? failed:$/ { add($0); block = 1; next }
    block && /^    `/ { add($0); next }
    { block = 0 }
    /^error: (doc)?test failed, to rerun pass / || /^error: could not compile / { add($0) }
    # rustdoc'"'"'s command line runs to kilobytes: its head and its status.
    /process didn.t exit successfully: / {
      sub(/^ +/, "")
      if (length($0) > 200) $0 = substr($0, 1, 120) " ... " substr($0, length($0) - 40)
      add($0)
    }
  ' "$1"
}

log=$(mktemp "${TMPDIR:-/tmp}/kibitz-test.XXXXXX")
trap 'rm -f "$log"' EXIT

# Shown live and saved for the summary. set -e is off for this one command
# so a failing test run still reaches the summary; pipefail is kept, and
# PIPESTATUS[0] is cargo's own status (tee's would hide it).
set +e
cargo test --locked --no-fail-fast "$@" 2>&1 | tee "$log"
cargo_status=${PIPESTATUS[0]}
set -e

read -r passed failed ignored filtered binaries binaries_failed < <(test_counts "$log")
failed_list=$(failed_tests "$log")
binary_errors=$(failed_binaries "$log")

echo
echo "Summary:"
binaries_note="Test binaries: $binaries finished, $binaries_failed of them FAILED"
if [ "$filtered" -gt 0 ]; then binaries_note="$binaries_note; $filtered tests filtered out"; fi
echo "$binaries_note"
if [ -n "$failed_list" ]; then
  echo "Failed tests ($(printf '%s\n' "$failed_list" | wc -l)):"
  printf '%s\n' "$failed_list"
fi
if [ -n "$binary_errors" ]; then
  echo "Test binaries that failed, did not build or crashed (cargo's words):"
  printf '%s\n' "$binary_errors"
fi
if [ "$cargo_status" -ne 0 ] && [ -z "$failed_list" ] && [ -z "$binary_errors" ]; then
  # Nothing above explains it (a lock file out of date, a bad argument...).
  echo "cargo test exited with status $cargo_status: see its output above"
fi

echo "Process tests (kill -9, replicas, SIGTERM) ran ${KIBITZ_TEST_BIN:-the test build of the kibitz binary}"

if [ -n "$stockfish_bin" ]; then
  # Its banner's first words, e.g. "Stockfish 15.1".
  stockfish_version=$(echo quit | timeout 10 "$stockfish_bin" 2>/dev/null | head -n 1 | sed 's/ by .*//' || true)
  stockfish_note="chess engine tests ran against $stockfish_bin (${stockfish_version:-version unknown})"
else
  stockfish_note="Stockfish was NOT tested: no stockfish on PATH or in /usr/games; install it (apt-get install stockfish)"
fi
if [ -n "$fairy_bin" ]; then
  fairy_version=$(echo quit | timeout 10 "$fairy_bin" 2>/dev/null | head -n 1 | sed 's/ by .*//' || true)
  stockfish_note="$stockfish_note; xiangqi and shogi engine tests ran against $fairy_bin (${fairy_version:-version unknown})"
else
  stockfish_note="$stockfish_note; Fairy-Stockfish was NOT tested: no fairy-stockfish on PATH or in /usr/games; install it (apt-get install fairy-stockfish)"
fi
if [ -n "$gnubg_bin" ]; then
  stockfish_note="$stockfish_note; backgammon engine tests ran against $gnubg_bin"
else
  stockfish_note="$stockfish_note; GNU Backgammon was NOT tested: no gnubg on PATH or in /usr/games; install it (apt-get install gnubg)"
fi

# One line says what was tested: the databases and the engines.
if [ -n "${KIBITZ_TEST_DATABASE_URL:-}" ]; then
  echo "Database tests ran against: SQLite (temporary files) and PostgreSQL (${KIBITZ_TEST_DATABASE_URL%%\?*}, a fresh database per test); $stockfish_note"
else
  echo "Database tests ran against: SQLite only. PostgreSQL was NOT tested: set KIBITZ_TEST_DATABASE_URL=postgres://user@host:port/db; $stockfish_note"
fi

# The last line, read by CI tooling: one word, a colon and the totals.
# Keep it last and of this shape.
echo "tests: $passed passed, $failed failed, $ignored ignored"

if [ "$cargo_status" -ne 0 ]; then
  exit "$cargo_status"
elif [ "$failed" -ne 0 ]; then
  exit 1
fi
