#!/usr/bin/env python3
"""A chess review must share the engines, not take them all and fail as a
whole (issue 45, finding 2), against a running server with Stockfish.

Before the fix, POST /chess/review took every engine process at once and
answered 503 as a whole when another client used chess at the same time;
the other client's POST /chess/move got 503s meanwhile. Now a review uses
the engines it can get, gives the extra ones back when another client
waits, searches a failed position again, and never fails because a
position waited.

Client A (its socket bound to 127.0.0.2, which Linux routes on loopback,
so that the server sees another client address) posts REVIEWS chess
reviews one after the other, each a real opening of 14-16 plies with
max_ms REVIEW_MS. Meanwhile client B (127.0.0.1) sends POST /chess/move
one after the other, each a question the server's chess cache cannot
answer (two plies from the start, in a random order, with a random max_ms
of 100-300 ms), until A is done.
Prints the server's chess engine count (from /metrics), each review's
status and time, and the counts: reviews 200/total, B's 200/503/other.

Fails (exit 1) when any review is not a whole 200 (a value for every
move), B gets any answer but 200 (a 503 above all), or B sent fewer than
MIN_MOVES requests during the reviews (then the check proved nothing).
With --report-only it only prints.

Usage: scripts/attack-reviews.py HOST:PORT [--reviews 4] [--review-ms 2000]
       [--min-moves 10] [--report-only]
Loopback (IPv4) only; takes about REVIEWS x REVIEW_MS plus a second or two.
"""
import argparse
import random
import re
import sys
import threading
import time

import attack_common
from attack_common import loopback

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--reviews", type=int, default=4)
parser.add_argument("--review-ms", type=int, default=2000)
parser.add_argument("--min-moves", type=int, default=10)
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)
TARGET = loopback(args.target)

A = "127.0.0.2"  # the reviewing client
B = "127.0.0.1"  # the client that asks for moves


def request(source, method, path, body=None, timeout=60):
    """(status, parsed body or text, seconds) of one request from `source`."""
    return attack_common.request(TARGET, method, path, body, source=source, timeout=timeout)


def detail(answer):
    return answer.get("detail", "") if isinstance(answer, dict) else str(answer)[:120]


# Real openings, 14-16 plies each, one per review (cycled).
OPENINGS = [
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8"),
    ("Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 b8d7 a1c1 c7c6 f1d3 d5c4"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 e1g1 b8c6 d4d5 c6e7"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d3 d7d6 e1g1 e8g8 f1e1 a7a6"),
    ("French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7 e4e5 f6d7 g5e7 d8e7 f2f4 e8g8"),
]

# B's questions: two plies from the start (every pair legal: no first move
# of White's blocks any of Black's 20), in a random order, with a random
# max_ms of 100-300 ms: the server's chess cache, keyed by (position,
# max_ms), answers none of them, on a second run against the same server
# too.
FIRST = [f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"] + ["b1a3", "b1c3", "g1f3", "g1h3"]
REPLY = [f"{f}7{f}{r}" for f in "abcdefgh" for r in "65"] + ["b8a6", "b8c6", "g8f6", "g8h6"]
B_POSITIONS = [[w, b] for b in REPLY for w in FIRST]
random.shuffle(B_POSITIONS)

status, metrics, _ = request(B, "GET", "/metrics")
engines = None
if status == 200 and isinstance(metrics, str):
    found = re.search(r'^kibitz_engine_processes\{game="chess"\} (\d+)', metrics, re.M)
    engines = int(found.group(1)) if found else None
print(f"server: {engines} chess engine process(es) (kibitz_engine_processes)")
if not engines:
    sys.exit("FAIL: the server runs no chess engine (is Stockfish installed?): the check cannot run")

reviews = []
moves = []
reviews_done = threading.Event()


def client_a():
    for n in range(args.reviews):
        name, line = OPENINGS[n % len(OPENINGS)]
        plies = line.split()
        body = {"moves": [{"uci": uci} for uci in plies], "max_ms": args.review_ms}
        status, answer, took = request(A, "POST", "/chess/review", body)
        problem = None
        if status != 200:
            problem = f"{status}: {detail(answer)}"
        elif not isinstance(answer, dict) or len(answer.get("moves") or []) != len(plies):
            problem = f"not a whole review: {str(answer)[:200]}"
        reviews.append((name, status, took, problem))
        print(f"  A review {name:24} {len(plies)} plies: {status} in {took:5.2f} s {problem or ''}")
    reviews_done.set()


def client_b():
    n = 0
    while not reviews_done.is_set():
        body = {"moves": B_POSITIONS[n % len(B_POSITIONS)], "max_ms": random.randint(100, 300)}
        status, answer, took = request(B, "POST", "/chess/move", body)
        problem = None
        if status == 200 and not (isinstance(answer, dict) and "move" in answer):
            problem = f"no move in {str(answer)[:200]}"
        elif status != 200:
            problem = f"{status}: {detail(answer)}"
        moves.append((body, status, took, problem, reviews_done.is_set()))
        if problem:
            print(f"  B move {' '.join(body['moves'])} max_ms {body['max_ms']}: {problem} after {took:.2f} s")
        n += 1


started = time.monotonic()
a = threading.Thread(target=client_a)
a.start()
time.sleep(0.2)  # the review holds the engines when B first asks
b = threading.Thread(target=client_b)
b.start()
a.join()
b.join()
elapsed = time.monotonic() - started

reviews_ok = sum(1 for _, status, _, problem in reviews if status == 200 and not problem)
during = [m for m in moves if not m[4]]
b_ok = sum(1 for m in moves if m[1] == 200 and not m[3])
b_503 = sum(1 for m in moves if m[1] == 503)
b_other = len(moves) - b_ok - b_503
times = sorted(m[2] for m in moves if m[1] == 200)
median = times[len(times) // 2] * 1000 if times else float("nan")
slowest = times[-1] * 1000 if times else float("nan")
print(f"reviews (client A): {reviews_ok}/{len(reviews)} answered 200, whole")
print(
    f"moves (client B): {len(moves)} sent ({len(during)} finished while a review ran): "
    f"{b_ok} 200, {b_503} 503, {b_other} other; 200s median {median:.0f} ms, slowest {slowest:.0f} ms"
)
print(f"took {elapsed:.1f} s")
if args.report_only:
    sys.exit(0)
failures = []
if reviews_ok != len(reviews):
    failures.append(f"{len(reviews) - reviews_ok} review(s) not a whole 200")
if b_503 or b_other:
    failures.append(f"client B got {b_503} 503 and {b_other} other failure(s)")
if len(during) < args.min_moves:
    failures.append(f"client B sent only {len(during)} moves during the reviews: the check proved nothing")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
print("ok: every review was answered whole while another client's moves were never refused")
