#!/usr/bin/env python3
"""Invented HTTP methods must not grow /metrics (issue 31, finding 2).

Sends COUNT requests to GET-only routes, each with a distinct made-up
method of LENGTH letters (every one a 405), over one keep-alive
connection, and measures GET /metrics before and after. Fails (exit 1)
when /metrics grew by more than 64 KiB. With --expect-growth it only
measures (the figures before the fix).

Usage: scripts/attack-metrics-methods.py HOST:PORT [--count N] [--length L]
       [--metrics HOST:PORT]   (where /metrics is, if moved)
Loopback only; the loop is bounded by COUNT and by 120 s.
"""
import argparse
import http.client
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--count", type=int, default=20000)
parser.add_argument("--length", type=int, default=16)
parser.add_argument("--metrics")
parser.add_argument("--expect-growth", action="store_true")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)

host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"
metrics_host, metrics_port = (args.metrics or args.target).rsplit(":", 1)


def metrics_size():
    conn = http.client.HTTPConnection(metrics_host, int(metrics_port), timeout=60)
    started = time.monotonic()
    conn.request("GET", "/metrics")
    body = conn.getresponse().read()
    conn.close()
    return len(body), time.monotonic() - started


before, _ = metrics_size()
letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def method(i):
    name = ""
    while True:
        name += letters[i % 26]
        i //= 26
        if i == 0:
            break
    return (name + "X" * args.length)[: args.length] if len(name) < args.length else name


conn = http.client.HTTPConnection(host, int(port), timeout=10)
statuses = {}
started = time.monotonic()
sent = 0
for i in range(args.count):
    if time.monotonic() - started > 120:
        break
    try:
        conn.request(method(i), "/healthz")
        response = conn.getresponse()
        response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1
    except (OSError, http.client.HTTPException):
        conn.close()
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        statuses["error"] = statuses.get("error", 0) + 1
    sent += 1
elapsed = time.monotonic() - started
after, render = metrics_size()
print(f"{sent} requests with distinct {args.length}-byte methods in {elapsed:.1f} s: {statuses}")
print(f"/metrics: {before:,} bytes before, {after:,} bytes after ({render * 1000:.0f} ms to fetch)")
if args.expect_growth:
    sys.exit(0)
if after - before > 64 * 1024:
    sys.exit(f"FAIL: /metrics grew by {after - before:,} bytes")
print("ok: /metrics stays bounded")
