#!/usr/bin/env bash
# Fuzzes the API from its own spec: schemathesis (PyPI) against the release
# binary's /openapi.yaml, every operation, every default check.
# Usage: scripts/fuzz.sh [examples per operation, default 200]
set -euo pipefail
cd "$(dirname "$0")/.."
examples=${1:-200}
command -v schemathesis >/dev/null || { echo "needs schemathesis: python3 -m pip install schemathesis"; exit 1; }
cargo build --release --locked -q
data=$(mktemp -d)
# A free port, so that two runs on one machine never test each other's server.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Searches capped at 200 ms so that thousands of generated requests finish
# quickly (the default budget too: one above the cap is refused at
# start-up), and no quota on match creation (hundreds of generated matches
# from one client would meet its 429); everything else is the default
# configuration.
KIBITZ_MAX_MS_CAP=200 KIBITZ_DEFAULT_MAX_MS=200 KIBITZ_MATCH_QUOTA_PER_HOUR=0 ./target/release/kibitz serve --bind "127.0.0.1:$port" --data-dir "$data" --log warn \
  > "$data/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$data"' EXIT
for _ in $(seq 120); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
# One worker: with two, hypothesis parses lambda sources with ast.parse in
# two threads at once, which CPython 3.11 can fail with "AST constructor
# recursion depth mismatch" (a runtime error of the tool, not of the API).
schemathesis run "http://127.0.0.1:$port/openapi.yaml" \
  --max-examples "$examples" --workers 1 --seed 1 \
  --request-timeout 15 --report junit --report-dir "target/schemathesis"
if ! kill -0 "$server" 2>/dev/null; then
  echo "the server died during fuzzing:"; cat "$data/server.log"; exit 1
fi
if grep -q "panicked" "$data/server.log"; then
  echo "the server panicked during fuzzing:"; grep -A3 panicked "$data/server.log"; exit 1
fi
echo "fuzzing passed: $examples examples per operation, server still up"
