#!/usr/bin/env python3
"""Limits that cannot contradict (issue 45, part 3), against a running
server: a search whose max_ms is within the server's cap but above the
old fixed request timeout (15 s) must be answered, not cut off with a 503
when the timeout passes, plain and streamed (NDJSON).

Sends two searches of MAX_MS (default 15100) of Othello's 8x8 start, far
from solved, so that each runs its whole budget: one plain, one with
`Accept: application/x-ndjson`, at once (about 15 s in all). The server
must allow them: started with `--max-ms-cap` of at least MAX_MS (and two
search workers, `--search-concurrency 2`, for both at once); its request
timeout is then derived from the cap. Prints each one's status and time;
fails (exit 1) when one is not a whole 200 answer, or came back before
MAX_MS (then the server did not search that long, and the check proved
nothing). With --report-only it only prints (the figures before the fix:
503 at 15.0 s for the plain one).

Usage: scripts/attack-limits.py HOST:PORT [--max-ms 15100]
"""
import argparse
import http.client
import json
import sys
import threading
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--max-ms", type=int, default=15100)
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"

board = ["........", "........", "........", "...OX...", "...XO...", "........", "........", "........"]
body = json.dumps({"board": board, "player": "X", "max_ms": args.max_ms})
results = {}


def search(name, headers):
    started = time.monotonic()
    conn = http.client.HTTPConnection(host, int(port), timeout=args.max_ms / 1000 + 30)
    try:
        conn.request("POST", "/othello/move", body, {"Content-Type": "application/json", **headers})
        answer = conn.getresponse()
        data = answer.read()
        results[name] = (answer.status, data, None, time.monotonic() - started)
    except (OSError, http.client.HTTPException) as error:
        results[name] = (None, b"", error, time.monotonic() - started)
    finally:
        conn.close()


def whole(name, status, data):
    """None when the answer is a whole 200, else what is wrong with it."""
    if status != 200:
        return f"status {status}: {data[:200]!r}"
    try:
        if name == "plain":
            answer = json.loads(data)
        else:
            lines = data.decode().splitlines()
            answer = json.loads(lines[-1])
            if answer.get("final") is not True:
                return f"the last of {len(lines)} lines is not final"
    except (ValueError, IndexError, UnicodeDecodeError) as error:
        return f"not JSON: {error}"
    if "move" not in answer:
        return f"no move in {str(answer)[:200]}"
    return None


threads = [
    threading.Thread(target=search, args=("plain", {})),
    threading.Thread(target=search, args=("streamed", {"Accept": "application/x-ndjson"})),
]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()

failures = []
for name in ("plain", "streamed"):
    status, data, error, took = results[name]
    print(f"{name}: max_ms {args.max_ms} -> {status or error} after {took:.2f} s")
    problem = f"failed: {error}" if error else whole(name, status, data)
    if problem:
        failures.append(f"{name}: {problem}")
    elif took < args.max_ms / 1000 - 0.2:
        failures.append(f"{name}: answered after {took:.2f} s, before its budget: the check proved nothing")
if args.report_only:
    sys.exit(0)
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print(f"ok: searches of {args.max_ms} ms, past the old 15 s timeout, were answered whole")
