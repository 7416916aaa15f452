#!/usr/bin/env bash
# The test command. Runs every test. Database tests run on SQLite always and
# on PostgreSQL when KIBITZ_TEST_DATABASE_URL names a server (each test makes
# a fresh database there); when it is unset and a server answers on
# 127.0.0.1:5432 it is used. The last line says which databases were tested.
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

cargo test --locked "$@"

echo "Process tests (kill -9, replicas, SIGTERM) ran ${KIBITZ_TEST_BIN:-the test build of the kibitz binary}"

if [ -n "${KIBITZ_TEST_DATABASE_URL:-}" ]; then
  echo "Database tests ran against: SQLite (temporary files) and PostgreSQL (${KIBITZ_TEST_DATABASE_URL%%\?*}, a fresh database per test)"
else
  echo "Database tests ran against: SQLite only. PostgreSQL was NOT tested: set KIBITZ_TEST_DATABASE_URL=postgres://user@host:port/db"
fi
