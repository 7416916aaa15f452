#!/usr/bin/env python3
"""A match that never ends must not make answers, reviews or memory grow
without bound (issue 31, finding 4).

Creates an Ishitori match that cannot end soon (`take: [1]` from 2^64-1)
and plays up to PLIES plies (the AI answers each move; moves are sent with
`?since=` as a careful client would, for at most 90 s), then measures GET
/matches/{id} (the whole match, as a client that reloads asks it), its
review, EIGHT concurrent reviews (the server's RSS with --pid) and 32
concurrent GETs. Fails (exit 1) when an answer is larger than --max-bytes,
a concurrent GET fails, or RSS grew by more than --max-rss-mib.
With --report-only it only prints (the figures before the fix).

Usage: scripts/attack-long-match.py HOST:PORT [--plies 10000] [--pid PID]
"""
import argparse
import http.client
import json
import sys
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--plies", type=int, default=10000)
parser.add_argument("--pid", type=int)
parser.add_argument("--max-bytes", type=int, default=2_000_000)
parser.add_argument("--max-rss-mib", type=float, default=300)
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"


def connection():
    return http.client.HTTPConnection(host, int(port), timeout=120)


def call(conn, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    answer = conn.getresponse()
    return answer.status, answer.read()


def rss_mib():
    if not args.pid:
        return 0.0
    with open(f"/proc/{args.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


conn = connection()
status, body = call(conn, "POST", "/matches", {
    "game": "ishitori", "options": {"remaining": "18446744073709551615", "take": [1], "misere": False},
})
assert status == 201, (status, body)
created = json.loads(body)
mid, token, ply = created["id"], created["token"], created["ply"]
started = time.monotonic()
refused = None
while ply < args.plies and time.monotonic() - started < 90:
    status, body = call(conn, "POST", f"/matches/{mid}/moves?since={ply}", {"ply": ply, "move": {"take": 1}}, token)
    if status != 200:
        refused = (status, json.loads(body).get("type"), json.loads(body).get("detail"))
        break
    ply = json.loads(body)["ply"]
print(f"played to ply {ply} in {time.monotonic() - started:.1f} s"
      + (f"; then {refused[0]} {refused[1]}: {refused[2]}" if refused else ""))

t = time.monotonic()
status, body = call(conn, "GET", f"/matches/{mid}", token=token)
match_bytes = len(body)
history = len(json.loads(body)["history"]) if status == 200 else None
print(f"GET /matches/{{id}}: {status}, {match_bytes:,} bytes, {history} history entries, "
      f"{(time.monotonic() - t) * 1000:.0f} ms")
t = time.monotonic()
status, body = call(conn, "GET", f"/matches/{mid}/review", token=token)
review_bytes = len(body)
print(f"GET /matches/{{id}}/review: {status}, {review_bytes:,} bytes, {(time.monotonic() - t) * 1000:.0f} ms")

rss_before = rss_mib()
peak = [rss_before]
results = []


def many(path, count):
    def one():
        try:
            results.append(call(connection(), "GET", path, token=token)[0])
        except OSError as error:
            results.append(f"error {error}")
    threads = [threading.Thread(target=one) for _ in range(count)]
    for th in threads:
        th.start()
    while any(th.is_alive() for th in threads):
        peak[0] = max(peak[0], rss_mib())
        time.sleep(0.05)


many(f"/matches/{mid}/review", 8)
reviews = dict((s, results.count(s)) for s in set(results))
results.clear()
many(f"/matches/{mid}", 32)
gets = dict((s, results.count(s)) for s in set(results))
time.sleep(1)
print(f"8 concurrent reviews: {reviews}; 32 concurrent GETs: {gets}")
if args.pid:
    print(f"server RSS: {rss_before:.0f} MiB before, {peak[0]:.0f} MiB peak, {rss_mib():.0f} MiB after")
if args.report_only:
    sys.exit(0)
problems = []
if max(match_bytes, review_bytes) > args.max_bytes:
    problems.append(f"an answer of {max(match_bytes, review_bytes):,} bytes (limit {args.max_bytes:,})")
if any(s != 200 for s in gets) or any(s not in (200, 422) for s in reviews):
    problems.append(f"concurrent requests failed: {gets} {reviews}")
if peak[0] - rss_before > args.max_rss_mib:
    problems.append(f"RSS grew by {peak[0] - rss_before:.0f} MiB")
if problems:
    sys.exit("FAIL: " + "; ".join(problems))
print("ok: every answer bounded, memory bounded")
