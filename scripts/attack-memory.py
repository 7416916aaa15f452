#!/usr/bin/env python3
"""Every cache inside --memory-mib (issue 45, part 4), against a running
server started with `--memory-mib MIB`: fills the caches that grow with
use and measures the server's resident memory (VmRSS of --pid) before and
after, against the figure.

What it sends, each kind from one connection (a few seconds in all with
the release binary):
- Ishitori take sets of one large amount, 999,990 and up: each has a
  period of about two million values, the "long" sequences, which the
  issue saw kept outside the budget (~16 MiB each: ten requests added
  110 MiB under --memory-mib 64);
- Ishitori take sets of one amount near 30,000 (periods of 60,000 values,
  the "short" sequences, counted at 64 KiB each but holding ~0.5 MiB);
- searches of Connect Four, Othello and Kalah (their transposition tables)
  and of large tic-tac-toe and Number Square boards (their memos);
- Pig decisions under other rules (solved tables) and Pig policies
  (written-out answers, kept with their gzip form).

Prints the RSS before, after, the growth and its ratio to MIB; fails
(exit 1) when the growth exceeds MIB. The caches are the memory that grows
with use; the growth also holds what the allocator keeps of requests
since answered, so the check is generous to the server. With
--report-only it only prints.

Usage: scripts/attack-memory.py HOST:PORT --pid PID --memory-mib 64
       [--long 10] [--short 100]
"""
import argparse
import http.client
import json
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--pid", type=int, required=True)
parser.add_argument("--memory-mib", type=int, required=True)
parser.add_argument("--long", type=int, default=10, help="Ishitori take sets with periods of ~2 million")
parser.add_argument("--short", type=int, default=100, help="Ishitori take sets with periods of ~60,000")
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
host, port = args.target.rsplit(":", 1)
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"


def rss_mib():
    with open(f"/proc/{args.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise SystemExit("no VmRSS for the server's pid")


conn = http.client.HTTPConnection(host, int(port), timeout=60)
statuses = {}


def call(method, path, body=None, headers=None):
    global conn
    sent = json.dumps(body) if body is not None else None
    all_headers = {"Content-Type": "application/json"} if body is not None else {}
    all_headers.update(headers or {})
    try:
        conn.request(method, path, sent, all_headers)
        answer = conn.getresponse()
        answer.read()
        status = answer.status
    except (OSError, http.client.HTTPException):
        conn.close()
        conn = http.client.HTTPConnection(host, int(port), timeout=60)
        status = None
    statuses[status] = statuses.get(status, 0) + 1
    if status != 200:
        print(f"{method} {path}: {status}")
    return status


def settle():
    """The resident size once the answers in flight are gone."""
    time.sleep(0.5)
    return rss_mib()


before = settle()
started = time.monotonic()
for i in range(args.long):
    call("POST", "/ishitori/move", {"take": [999_990 + i], "remaining": 10_000_000, "misere": False, "max_ms": 3000})
for i in range(args.short):
    call("POST", "/ishitori/move", {"take": [30_000 + i], "remaining": 10_000_000, "misere": False})
for board in (["......."] * 6, ["........"] * 8):
    call("POST", "/connect-four/move", {"board": board, "max_ms": 1000})
othello = ["........", "........", "........", "...OX...", "...XO...", "........", "........", "........"]
call("POST", "/othello/move", {"board": othello, "player": "X", "max_ms": 1000})
kalah = {"south": [6] * 6, "north": [6] * 6, "south_store": 0, "north_store": 0}
call("POST", "/kalah/move", {"board": kalah, "to_move": "south", "max_ms": 1000})
for size in (6, 7):
    call("POST", "/tictactoe/move", {"board": ["." * size] * size, "k": 4, "max_ms": 1000})
call("POST", "/number-square/move", {"board": [[(r * 7 + c) % 9 + 1 for c in range(7)] for r in range(7)], "max_ms": 1000})
for goal in (50, 60, 70, 80):
    call("POST", "/pig/decision", {"my_score": 0, "opponent_score": 0, "turn_total": 0, "goal": goal})
for goal in (100, 50, 60, 70, 80):
    call("GET", f"/pig/policy?goal={goal}", headers={"Accept-Encoding": "gzip"})
after = settle()
grown = after - before
print(
    f"RSS {before:.0f} MiB before, {after:.0f} MiB after {time.monotonic() - started:.1f} s of filling: "
    f"grew {grown:.0f} MiB, {grown / args.memory_mib:.2f} of --memory-mib {args.memory_mib} "
    f"(answers by status: {dict(sorted(statuses.items(), key=str))})"
)
if args.report_only:
    sys.exit(0)
if grown > args.memory_mib:
    print(f"FAIL: the caches grew the server by more than --memory-mib {args.memory_mib}")
    sys.exit(1)
if statuses.get(None) or any(s and s >= 500 for s in statuses):
    print("FAIL: a request went unanswered or got a 5xx")
    sys.exit(1)
print("ok")
