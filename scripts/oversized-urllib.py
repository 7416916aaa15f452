#!/usr/bin/env python3
"""A body over the server's limit, sent with Python's urllib as an ordinary
client sends it (the whole body, then read the answer), must read the 413
problem, not a connection reset (issue 17's lingering close).

Usage: scripts/oversized-urllib.py BASE_URL [MEGABYTES, default 25]
"""
import json
import sys
import urllib.error
import urllib.request

base = sys.argv[1].rstrip("/")
megabytes = int(sys.argv[2]) if len(sys.argv) > 2 else 25
# A JSON body of the requested size: one long board row.
body = json.dumps({"board": ["." * (megabytes * 1024 * 1024)]}).encode()
request = urllib.request.Request(
    f"{base}/tictactoe/move",
    data=body,
    headers={"Content-Type": "application/json"},
    method="POST",
)
try:
    with urllib.request.urlopen(request, timeout=60) as answer:
        sys.exit(f"a {megabytes} MB body was answered {answer.status}, expected 413")
except urllib.error.HTTPError as error:
    problem = json.loads(error.read())
    content_type = error.headers.get("Content-Type", "")
    if error.code != 413 or problem.get("status") != 413 or content_type != "application/problem+json":
        sys.exit(f"expected a 413 problem+json, got {error.code} {content_type}: {problem}")
    print(f"urllib, {len(body):,} bytes to /tictactoe/move: 413 {problem['detail']}")
