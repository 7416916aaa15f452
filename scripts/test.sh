#!/usr/bin/env bash
# The test command. Runs every test. Database tests run on SQLite always and
# on PostgreSQL when KIBITZ_TEST_DATABASE_URL names a server (each test makes
# a fresh database there); when it is unset and a server answers on
# 127.0.0.1:5432 it is used. The chess engine tests run against Stockfish
# and the xiangqi and shogi ones against Fairy-Stockfish when installed. The
# last lines say whether the engines were tested and which databases were.
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

cargo test --locked "$@"

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

# One closing line says what was tested: the databases and the engine.
if [ -n "${KIBITZ_TEST_DATABASE_URL:-}" ]; then
  echo "Database tests ran against: SQLite (temporary files) and PostgreSQL (${KIBITZ_TEST_DATABASE_URL%%\?*}, a fresh database per test); $stockfish_note"
else
  echo "Database tests ran against: SQLite only. PostgreSQL was NOT tested: set KIBITZ_TEST_DATABASE_URL=postgres://user@host:port/db; $stockfish_note"
fi
