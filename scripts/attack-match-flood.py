#!/usr/bin/env python3
"""A flood of match creations from one client must meet the quota (issue
31, finding 6): 429 with Retry-After, not thousands of stored matches.

Creates up to COUNT Ishitori matches with 64 heaps and 64 take amounts (the
largest rows a client can make) as fast as one keep-alive connection
allows, for at most 60 s. Prints how many were created and refused and the
bytes the server was asked to keep. Fails (exit 1) when more than ALLOWED
were created or a refusal lacks Retry-After. With --report-only it only
prints (the figures before the fix).

Usage: scripts/attack-match-flood.py HOST:PORT [--count 2000] [--allowed 60]
"""
import argparse
import http.client
import json
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--count", type=int, default=2000)
parser.add_argument("--allowed", type=int, default=60)
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"

body = json.dumps({
    "game": "ishitori",
    "options": {"heaps": [10**18 + i for i in range(64)], "take": list(range(1, 65)), "misere": False},
})
conn = http.client.HTTPConnection(host, int(port), timeout=30)
statuses, stored_bytes, bare_429 = {}, 0, 0
started = time.monotonic()
attempts = 0
for _ in range(args.count):
    if time.monotonic() - started > 60:
        break
    attempts += 1
    try:
        conn.request("POST", "/matches", body, {"Content-Type": "application/json"})
        answer = conn.getresponse()
        data = answer.read()
    except (OSError, http.client.HTTPException):
        # A refusal may close the connection (its body unread): reconnect.
        conn.close()
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        statuses["reconnect"] = statuses.get("reconnect", 0) + 1
        continue
    statuses[answer.status] = statuses.get(answer.status, 0) + 1
    if answer.status == 201:
        stored_bytes += len(data)
    elif answer.status == 429 and not answer.getheader("Retry-After"):
        bare_429 += 1
elapsed = time.monotonic() - started
created = statuses.get(201, 0)
print(f"{attempts} creations in {elapsed:.1f} s: {statuses}; "
      f"{created} matches kept (their answers alone {stored_bytes / 1e6:.1f} MB)")
if args.report_only:
    sys.exit(0)
if created > args.allowed or bare_429 or not statuses.get(429):
    sys.exit(f"FAIL: {created} created (allowed {args.allowed}), {bare_429} 429s without Retry-After")
print("ok: the flood met 429 with Retry-After")
