#!/usr/bin/env bash
# The playground's browser tests: starts the release binary on a free port
# with an empty data directory, runs tests/browser/test_playground.py in
# headless Chromium (Debian's chromium + chromium-driver, Python selenium),
# saves the screenshots, and stops the server.
#
#   tests/browser/run.sh            # builds target/release/kibitz first
#   KIBITZ_BIN=path/to/kibitz tests/browser/run.sh
#   tests/browser/run.sh -k xiangqi   # arguments go to unittest
set -euo pipefail
cd "$(dirname "$0")/../.."

target=${CARGO_TARGET_DIR:-target}
if [ -z "${KIBITZ_BIN:-}" ]; then
  cargo build --release --locked --bin kibitz
  KIBITZ_BIN="$target/release/kibitz"
fi
export KIBITZ_BIN=$(realpath "$KIBITZ_BIN")
export SCREENSHOT_DIR=${SCREENSHOT_DIR:-$(realpath -m "$target/browser-screenshots")}
rm -rf "$SCREENSHOT_DIR"
mkdir -p "$SCREENSHOT_DIR"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
data=$(mktemp -d)
"$KIBITZ_BIN" serve --bind "127.0.0.1:$port" --data-dir "$data" > "$data/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

export KIBITZ_URL="http://127.0.0.1:$port"
for _ in $(seq 240); do
  curl -fsS "$KIBITZ_URL/readyz" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { cat "$data/server.log"; echo "the server exited"; exit 1; }
  sleep 0.25
done
curl -fsS "$KIBITZ_URL/readyz" >/dev/null || { cat "$data/server.log"; echo "the server never became ready"; exit 1; }

status=0
python3 tests/browser/test_playground.py "$@" || status=$?
echo "screenshots: $SCREENSHOT_DIR"
ls "$SCREENSHOT_DIR"
if [ "$status" -ne 0 ]; then
  echo "--- server log (last 40 lines)"
  tail -n 40 "$data/server.log"
fi
exit "$status"
