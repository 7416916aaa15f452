#!/usr/bin/env python3
"""Issue 45's small findings: contradictory settings refused at start-up
(part of finding 3) and the headers and answers of finding 5, against the
binary and a running server.

Start-up (the binary given with --bin, each time on a free port with a
temporary data dir, its environment's KIBITZ_* variables removed): each
contradictory setting must make `serve` exit non-zero within a few
seconds, naming every flag involved in its message:
  --default-max-ms 30000                         (above the default cap)
  --max-connections 0                            (below 2)
  --request-timeout-ms 0                         (below the cap + 1 s)
  --request-timeout-ms 5000 --max-ms-cap 60000   (below the cap + 1 s)
  --search-queue-ms 30000 --request-timeout-ms 20000  (below the queue + 1 s)
  --header-timeout-ms 50, --max-header-bytes 100, --max-headers 2
and, as a control, the least request timeout the defaults allow (11000)
must start (and is then stopped).

Against the running server at HOST:PORT:
  - a 405 (DELETE /healthz, GET /pig/decision) carries a non-empty Allow
    that names the method served there;
  - a key named twice inside an object of the body (a match's move
    {"take": 1, "take": 3}; a tic-tac-toe review's {"row", "col", "col"})
    is a 400 naming the key, and the match's move was not played;
  - the 201 of POST /matches {"game": "tictactoe"} has Cache-Control:
    no-store;
  - GET and OPTIONS /metrics with the Origin of another site carry no
    Access-Control-* header (while /healthz answers that Origin, the
    control, printed);
  - a wrong token on an existing match (GET /matches/{id}, the match with
    PLIES plies of history) is a 403 answered about as fast as an unknown
    id's 404: medians over --samples requests each, interleaved on
    keep-alive connections; fails only when the 403's median is above
    10 times the 404's AND above 20 ms (before the fix, the history was
    read first: a long match's 30 ms against 0.65 ms). The right token's
    GET, which reads the history, is timed too for comparison;
  - every answer of all the above carries X-Content-Type-Options: nosniff.

Each check prints PASS or FAIL with its figure; exit 1 when any fails.

Usage: scripts/attack-small.py HOST:PORT --bin PATH [--plies 2000]
       [--samples 21] [--start-port 0]
Loopback only; takes about 5-10 s (most of it playing the match's plies).
Creates 3 matches from this client (of its match quota's burst of 60).
"""
import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--bin", required=True, help="the kibitz binary, for the start-up checks")
parser.add_argument("--plies", type=int, default=2000, help="plies of the match whose token is guessed")
parser.add_argument("--samples", type=int, default=21)
parser.add_argument("--start-port", type=int, default=0, help="port of the control start-up (0: a free one)")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"
port = int(port)

failures = []


def check(name, ok, figure):
    print(f"{'PASS' if ok else 'FAIL'} {name}: {figure}")
    if not ok:
        failures.append(name)


# ---- start-up: contradictory settings refused

REFUSED = [
    (["--default-max-ms", "30000"], ["--default-max-ms", "--max-ms-cap"]),
    (["--max-connections", "0"], ["--max-connections"]),
    (["--request-timeout-ms", "0"], ["--request-timeout-ms", "--max-ms-cap"]),
    (["--request-timeout-ms", "5000", "--max-ms-cap", "60000"], ["--request-timeout-ms", "--max-ms-cap"]),
    (["--search-queue-ms", "30000", "--request-timeout-ms", "20000"], ["--request-timeout-ms", "--search-queue-ms"]),
    (["--header-timeout-ms", "50"], ["--header-timeout-ms"]),
    (["--max-header-bytes", "100"], ["--max-header-bytes"]),
    (["--max-headers", "2"], ["--max-headers"]),
]
environment = {k: v for k, v in os.environ.items() if not k.startswith("KIBITZ_")}


def serve(flags, data_dir, bind_port=0):
    command = [args.bin, "serve", "--bind", f"127.0.0.1:{bind_port}", "--data-dir", data_dir, *flags]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=environment, text=True
    )


for flags, named in REFUSED:
    with tempfile.TemporaryDirectory() as data_dir:
        started = time.monotonic()
        process = serve(flags, data_dir)
        try:
            output, _ = process.communicate(timeout=5)
            took = time.monotonic() - started
            missing = [flag for flag in named if flag not in output]
            refusal = re.search(r"^kibitz: (.*)$", output, re.M)
            message = refusal.group(1) if refusal else (output.strip().splitlines() or [""])[-1]
            ok = process.returncode != 0 and not missing
            figure = f"exit {process.returncode} in {took:.2f} s" + (f", names no {missing}" if missing else "")
            check(f"start-up refused: {' '.join(flags)}", ok, f"{figure}: {message[:150]}")
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
            check(f"start-up refused: {' '.join(flags)}", False, "still running after 5 s: it started (killed)")

# The control: the least request timeout the defaults allow starts.
with tempfile.TemporaryDirectory() as data_dir:
    flags = ["--request-timeout-ms", "11000", "--engine-warm-up", "false"]
    process = serve(flags, data_dir, args.start_port)
    try:
        output, _ = process.communicate(timeout=3)
        check(f"start-up allowed: {' '.join(flags)}", False, f"exit {process.returncode}: {output.strip()[-300:]}")
    except subprocess.TimeoutExpired:
        process.terminate()
        try:
            output, _ = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        listening = "listening on" in output
        check(f"start-up allowed: {' '.join(flags)}", listening, "running after 3 s" + ("" if listening else ", but never listening"))


# ---- against the running server

answers = []  # (what, status, headers) of every answer, for nosniff


def connection():
    return http.client.HTTPConnection(host, port, timeout=30)


def call(conn, method, path, body=None, token=None, headers=None, raw=None):
    """(status, headers, parsed body or text) of one request on `conn`."""
    sent = dict(headers or {})
    data = None
    if raw is not None:
        data = raw.encode()
        sent.setdefault("Content-Type", "application/json")
    elif body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    if token:
        sent["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=data, headers=sent)
    answer = conn.getresponse()
    text = answer.read().decode(errors="replace")
    answers.append((f"{method} {path}", answer.status, answer.headers))
    try:
        return answer.status, answer.headers, json.loads(text)
    except ValueError:
        return answer.status, answer.headers, text


def detail(body):
    return body.get("detail", "") if isinstance(body, dict) else str(body)[:150]


conn = connection()

# A 405 names what is served there.
for method, path, served in [("DELETE", "/healthz", "GET"), ("GET", "/pig/decision", "POST")]:
    status, headers, body = call(conn, method, path)
    allow = headers.get("Allow") or ""
    listed = [m.strip() for m in allow.split(",") if m.strip()]
    check(f"{method} {path} is a 405 with Allow", status == 405 and served in listed, f"{status}, Allow: {allow!r}")

# POST /matches: Cache-Control: no-store on the answer with the token.
status, headers, created = call(conn, "POST", "/matches", {"game": "tictactoe"})
cache_control = headers.get("Cache-Control")
check(
    "POST /matches 201 has Cache-Control: no-store",
    status == 201 and "no-store" in (cache_control or ""),
    f"{status}, Cache-Control: {cache_control!r}",
)

# A key named twice inside an object is a 400 naming it.
status, _, small = call(conn, "POST", "/matches", {"game": "ishitori"})
assert status == 201, (status, small)
raw = json.dumps({"ply": small["ply"], "move": {"take": 1}})[:-2] + ', "take": 3}}'
status, _, body = call(conn, "POST", f"/matches/{small['id']}/moves", raw=raw, token=small["token"])
_, _, after = call(conn, "GET", f"/matches/{small['id']}", token=small["token"])
check(
    "a move with a key named twice is a 400",
    status == 400 and "take" in detail(body) and after.get("ply") == small["ply"],
    f"{raw} -> {status}: {detail(body)}; ply {small['ply']} -> {after.get('ply')}",
)
raw = '{"moves": [{"row": 1, "col": 1, "col": 2}]}'
status, _, body = call(conn, "POST", "/tictactoe/review", raw=raw)
check("a review move with a key named twice is a 400", status == 400 and "col" in detail(body), f"{raw} -> {status}: {detail(body)}")

# /metrics is never for a page of another origin.
origin = "https://elsewhere.example"
status, headers, _ = call(conn, "GET", "/metrics", headers={"Origin": origin})
cors = [name for name in headers.keys() if name.lower().startswith("access-control-")]
check(f"GET /metrics from Origin {origin} has no CORS", status == 200 and not cors, f"{status}, CORS headers: {cors}")
status, headers, _ = call(
    conn, "OPTIONS", "/metrics", headers={"Origin": origin, "Access-Control-Request-Method": "GET"}
)
cors = [name for name in headers.keys() if name.lower().startswith("access-control-")]
check(f"OPTIONS /metrics (preflight) from {origin} has no CORS", not cors, f"{status}, CORS headers: {cors}")
status, headers, _ = call(conn, "GET", "/healthz", headers={"Origin": origin})
print(f"     control: GET /healthz from that Origin: {status}, "
      f"Access-Control-Allow-Origin: {headers.get('Access-Control-Allow-Origin')!r}")

# A wrong token on a match with a long history is refused as fast as an
# unknown id.
status, _, m = call(conn, "POST", "/matches", {
    "game": "ishitori", "options": {"remaining": "18446744073709551615", "take": [1], "misere": False},
})
assert status == 201, (status, m)
mid, token, ply = m["id"], m["token"], m["ply"]
started = time.monotonic()
while ply < args.plies:
    status, _, body = call(conn, "POST", f"/matches/{mid}/moves?since={ply}", {"ply": ply, "move": {"take": 1}}, token)
    if status != 200:
        sys.exit(f"FAIL: a move at ply {ply} answered {status}: {detail(body)}")
    ply = body["ply"]
print(f"     a match played to ply {ply} in {time.monotonic() - started:.1f} s")
wrong = ("1" if token[0] == "0" else "0") + token[1:]
unknown = "0123456789abcdef0123456789abcdef"
kinds = {
    "wrong token (403)": (f"/matches/{mid}", wrong, 403),
    "unknown id (404)": (f"/matches/{unknown}", token, 404),
    "right token (200)": (f"/matches/{mid}", token, 200),
}
conns = {kind: connection() for kind in kinds}
times = {kind: [] for kind in kinds}
statuses = {kind: set() for kind in kinds}
for _ in range(args.samples):
    for kind, (path, key, _) in kinds.items():
        t = time.perf_counter()
        status, _, _ = call(conns[kind], "GET", path, token=key)
        times[kind].append((time.perf_counter() - t) * 1000)
        statuses[kind].add(status)
medians = {kind: sorted(values)[len(values) // 2] for kind, values in times.items()}
for kind in kinds:
    print(f"     GET {kind:18}: median {medians[kind]:6.2f} ms over {args.samples}, statuses {sorted(statuses[kind])}")
ratio = medians["wrong token (403)"] / max(medians["unknown id (404)"], 1e-6)
slow = ratio > 10 and medians["wrong token (403)"] > 20
right_statuses = all(statuses[kind] == {expected} for kind, (_, _, expected) in kinds.items())
check(
    "a wrong token is a 403 as fast as an unknown id's 404",
    right_statuses and not slow,
    f"403 median {medians['wrong token (403)']:.2f} ms, 404 median {medians['unknown id (404)']:.2f} ms, "
    f"ratio {ratio:.2f} (history read by the right token: {medians['right token (200)']:.2f} ms)",
)

# Every answer above says nosniff, and those of a body refused.
status, _, body = call(conn, "POST", "/pig/decision", raw="{}", headers={"Content-Type": "text/plain"})
big = connection()
try:
    call(big, "POST", "/pig/decision", raw=" " * 70_000)
except (OSError, http.client.HTTPException) as error:
    print(f"     POST /pig/decision of 70,000 bytes: {error}")
big.close()
lacking = [(what, status) for what, status, headers in answers if headers.get("X-Content-Type-Options") != "nosniff"]
kinds_seen = sorted({status for _, status, _ in answers})
check(
    "every answer has X-Content-Type-Options: nosniff",
    not lacking,
    f"{len(answers) - len(lacking)} of {len(answers)} answers (statuses {kinds_seen})"
    + (f"; lacking: {lacking[:5]}" if lacking else ""),
)

if failures:
    sys.exit(f"FAIL: {len(failures)} check(s): " + "; ".join(failures))
print("ok: every check passed")
