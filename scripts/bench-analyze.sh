#!/usr/bin/env bash
# POST /analyze against the same positions as single requests, side by side
# in one run: starts the release binary, warms 100 distinct 3x3 tic-tac-toe
# positions, then per round times 100 sequential POST /tictactoe/move over one
# keep-alive connection and one POST /analyze holding the same 100, checks
# that the batch's results are the single answers, and prints the medians
# and their ratio (the issue's target: the batch at most 1/20 of the singles).
# Usage: scripts/bench-analyze.sh [rounds, default 7]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-7}
cargo build --release --locked -q
bin="${CARGO_TARGET_DIR:-target}/release/kibitz"
data=$(mktemp -d)
port=18484
"$bin" serve --bind "127.0.0.1:$port" --data-dir "$data" --log warn > "$data/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 120); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.5; done

python3 - "$port" "$rounds" <<'EOF'
import http.client, json, statistics, sys, time

port, rounds = int(sys.argv[1]), int(sys.argv[2])

def positions(count):
    """The first `count` unfinished 3x3 positions reachable from the empty
    board, breadth first (distinct boards)."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    def over(b):
        return "." not in b or any(b[i] != "." and b[i] == b[j] == b[k] for i, j, k in lines)
    seen, frontier, out = {"." * 9}, ["." * 9], []
    while frontier and len(out) < count:
        nxt = []
        for b in frontier:
            if over(b):
                continue
            out.append(b)
            mover = "X" if b.count("X") == b.count("O") else "O"
            for i, c in enumerate(b):
                if c == ".":
                    a = b[:i] + mover + b[i + 1:]
                    if a not in seen:
                        seen.add(a)
                        nxt.append(a)
        frontier = nxt
    return [[b[0:3], b[3:6], b[6:9]] for b in out[:count]]

boards = positions(100)
assert len(boards) == 100 and len({tuple(b) for b in boards}) == 100
singles = [json.dumps({"board": b}).encode() for b in boards]
batch = json.dumps({"positions": [{"game": "tictactoe", "board": b} for b in boards]}).encode()
headers = {"Content-Type": "application/json"}
conn = http.client.HTTPConnection("127.0.0.1", port)

def post(path, body):
    conn.request("POST", path, body, headers)
    r = conn.getresponse()
    data = r.read()
    assert r.status == 200, (path, r.status, data[:300])
    return data

# Warm: every position solved once, so that both ways serve warm answers.
answers = [json.loads(post("/tictactoe/move", s)) for s in singles]
assert json.loads(post("/analyze", batch))["results"] == answers, "the batch differs from the single answers"

def time_singles():
    t = time.perf_counter()
    for s in singles:
        post("/tictactoe/move", s)
    return time.perf_counter() - t

def time_batch():
    t = time.perf_counter()
    post("/analyze", batch)
    return time.perf_counter() - t

def time_healthz():
    t = time.perf_counter()
    for _ in range(100):
        conn.request("GET", "/healthz")
        r = conn.getresponse()
        r.read()
    return time.perf_counter() - t

single_times, batch_times, healthz_times = [], [], []
for i in range(rounds):
    healthz_times.append(time_healthz())
    # Alternate which goes first, so neither always meets a colder machine.
    if i % 2 == 0:
        single_times.append(time_singles()); batch_times.append(time_batch())
    else:
        batch_times.append(time_batch()); single_times.append(time_singles())
s, b = statistics.median(single_times), statistics.median(batch_times)
print(f"rounds: {rounds}; request bodies: 100 singles {sum(map(len, singles))} bytes, batch {len(batch)} bytes")
print(f"100 single POST /tictactoe/move, sequential, keep-alive: median {s * 1e3:.2f} ms "
      f"(rounds: {', '.join(f'{x * 1e3:.1f}' for x in single_times)})")
print(f"1 POST /analyze with the same 100:                     median {b * 1e3:.2f} ms "
      f"(rounds: {', '.join(f'{x * 1e3:.2f}' for x in batch_times)})")
print(f"for scale, 100 GET /healthz the same way:               median {statistics.median(healthz_times) * 1e3:.2f} ms")
print(f"batch / singles = {b / s:.4f} = 1/{s / b:.1f} (target: at most 1/20)")
EOF
