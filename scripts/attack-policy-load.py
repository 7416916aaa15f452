#!/usr/bin/env python3
"""Large answers against the async threads (issue 45, part 5), against a
running server: CONNECTIONS clients (default 24) ask for GET /pig/policy
(1.4 MB of JSON at goal 200) with `Accept-Encoding: gzip`, back to back,
while one more client times GET /healthz. Compressed again for every
request on the async threads, the policies took /healthz's median from
0.9 ms to 192 ms; kept compressed, they should not move it much.

Prints /healthz's median and p99 alone, then under the load, and their
ratio; fails (exit 1) when the median under load is above --max-median-ms
(default 20). With --report-only it only prints.

Usage: scripts/attack-policy-load.py HOST:PORT [--connections 24]
       [--duration 5] [--goal 200]
"""
import argparse
import http.client
import statistics
import sys
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--connections", type=int, default=24)
parser.add_argument("--duration", type=float, default=5)
parser.add_argument("--goal", type=int, default=200)
parser.add_argument("--max-median-ms", type=float, default=20)
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"
stop = threading.Event()
policies = [0]
failures = [0]


def load():
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    while not stop.is_set():
        try:
            conn.request("GET", f"/pig/policy?goal={args.goal}", headers={"Accept-Encoding": "gzip"})
            answer = conn.getresponse()
            answer.read()
            if answer.status == 200:
                policies[0] += 1
            else:
                failures[0] += 1
        except (OSError, http.client.HTTPException):
            failures[0] += 1
            conn.close()
            conn = http.client.HTTPConnection(host, int(port), timeout=30)


def healthz_times(seconds):
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    times = []
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        started = time.perf_counter()
        conn.request("GET", "/healthz")
        conn.getresponse().read()
        times.append((time.perf_counter() - started) * 1000)
        time.sleep(0.005)
    return times


def figures(times):
    times = sorted(times)
    return statistics.median(times), times[int(len(times) * 0.99) - 1]


# Once, so that the policy is written (and compressed) before the timing.
load_conn = http.client.HTTPConnection(host, int(port), timeout=120)
load_conn.request("GET", f"/pig/policy?goal={args.goal}", headers={"Accept-Encoding": "gzip"})
load_conn.getresponse().read()
alone = figures(healthz_times(2))
threads = [threading.Thread(target=load, daemon=True) for _ in range(args.connections)]
for thread in threads:
    thread.start()
time.sleep(0.5)
loaded = figures(healthz_times(args.duration))
stop.set()
for thread in threads:
    thread.join(timeout=30)
print(
    f"/healthz median {alone[0]:.2f} ms (p99 {alone[1]:.2f}) alone, {loaded[0]:.2f} ms (p99 {loaded[1]:.2f}) "
    f"under {args.connections} connections asking for /pig/policy?goal={args.goal} "
    f"({policies[0]} answered, {failures[0]} failed): median x{loaded[0] / alone[0]:.1f}"
)
if args.report_only:
    sys.exit(0)
if loaded[0] > args.max_median_ms or failures[0]:
    print(f"FAIL: /healthz's median under the load is above {args.max_median_ms} ms, or a policy failed")
    sys.exit(1)
print("ok")
