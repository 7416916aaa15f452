#!/usr/bin/env python3
"""One client's heavy work must not refuse another client's light work
(issue 45, finding 1), against a running server.

A heavy client keeps two long searches running (Othello 8x8 openings with
max_ms HEAVY_MS, enough to hold both workers of a server started with
--search-concurrency 2). Once they run, a light client sends 13 uncached
light requests one after the other: Connect Four positions from the
opening book, trivial Ishitori heaps, small tic-tac-toe searches, matches
the person starts and a move in each. Prints how each was answered and the
light client's 503 count.

The clients are told apart as the server tells them apart: by source
address (the light client's socket is bound to 127.0.0.2, which Linux
routes on loopback), or with --forwarded (a server started with
--rate-limit-trust-forwarded) by the X-Forwarded-For each one sends.

Fails (exit 1) when the light client gets any 503 (or any other failure),
or a heavy search is refused. With --report-only it only prints (the
figures before the fix).

Usage: scripts/attack-fairness.py HOST:PORT [--heavy-ms 10000]
       [--forwarded] [--report-only]
Loopback only; takes about HEAVY_MS plus a few seconds.
"""
import argparse
import sys
import threading
import time

import attack_common
from attack_common import loopback

parser = argparse.ArgumentParser()
parser.add_argument("target")
parser.add_argument("--heavy-ms", type=int, default=10000)
parser.add_argument("--forwarded", action="store_true")
parser.add_argument("--report-only", action="store_true")
args = parser.parse_args()
sys.stdout.reconfigure(line_buffering=True)
TARGET = loopback(args.target)

HEAVY = ("127.0.0.1", "198.51.100.1")
LIGHT = ("127.0.0.2", "198.51.100.2")


def request(client, method, path, body=None, token=None, timeout=60):
    """(status, parsed body or text, seconds) of one request from `client`:
    its loopback source, or its X-Forwarded-For with --forwarded."""
    source, forwarded = client
    headers = {}
    if args.forwarded:
        headers["X-Forwarded-For"] = forwarded
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return attack_common.request(
        TARGET, method, path, body, source=None if args.forwarded else source, headers=headers, timeout=timeout
    )


OPENING = ["........", "........", "........", "...OX...", "...XO...", "........", "........", "........"]
heavy_answers = []
light_done = threading.Event()


def heavy():
    # Until the light client is done: a long search at a time, two threads.
    while not light_done.is_set():
        status, body, took = request(
            HEAVY, "POST", "/othello/move", {"board": OPENING, "player": "X", "max_ms": args.heavy_ms}
        )
        heavy_answers.append((status, took))


def tictactoe(cell):
    board = ["....", "....", "....", "...."]
    row, col = divmod(cell, 4)
    board[row] = board[row][:col] + "X" + board[row][col + 1 :]
    return {"board": board, "max_ms": 500}


def light_requests():
    """13 uncached light requests (each a distinct question)."""
    plain = [
        ("connect four book", "/connect-four/move", {"moves": "44"}),
        ("connect four book", "/connect-four/move", {"moves": "43"}),
        ("connect four book", "/connect-four/move", {"moves": "45"}),
        ("ishitori heap", "/ishitori/move", {"remaining": 7}),
        ("ishitori heap", "/ishitori/move", {"remaining": 13}),
        ("ishitori heap", "/ishitori/move", {"remaining": 22}),
        ("small search", "/tictactoe/move", tictactoe(5)),
        ("small search", "/tictactoe/move", tictactoe(6)),
        ("small search", "/tictactoe/move", tictactoe(9)),
    ]
    for name, path, body in plain:
        status, answer, took = request(LIGHT, "POST", path, body)
        yield name, status, answer, took
    for game in ("tictactoe", "ishitori"):
        status, m, took = request(LIGHT, "POST", "/matches", {"game": game})
        yield f"create {game} match", status, m, took
        if status != 201:
            continue
        move = {"ply": m["ply"], "move": m["legal_moves"][0]}
        status, answer, took = request(LIGHT, "POST", f"/matches/{m['id']}/moves", move, token=m["token"])
        yield f"move in {game} match", status, answer, took


threads = [threading.Thread(target=heavy, daemon=True) for _ in range(2)]
for thread in threads:
    thread.start()
    time.sleep(0.05)
time.sleep(1.0)
print(f"heavy client: two Othello openings at max_ms {args.heavy_ms} running; light client starts")
refused = failed = 0
answers = []
for name, status, answer, took in light_requests():
    answers.append(status)
    detail = answer.get("detail", "") if isinstance(answer, dict) else str(answer)[:80]
    print(f"  light {name:22} {status} in {took * 1000:7.1f} ms {detail if status not in (200, 201) else ''}")
    if status == 503:
        refused += 1
    elif status not in (200, 201):
        failed += 1
light_done.set()
for thread in threads:
    thread.join(timeout=args.heavy_ms / 1000 + 30)
heavy_refused = sum(1 for status, _ in heavy_answers if status != 200)
print(f"light client: {refused} of {len(answers)} answered 503, {failed} other failures")
print(
    f"heavy client: {len(heavy_answers)} searches, {heavy_refused} not 200, "
    f"times {', '.join(f'{took:.1f}s' for _, took in heavy_answers)}"
)
if args.report_only:
    sys.exit(0)
if refused or failed or heavy_refused:
    print("FAIL: one client's heavy work refused another's light work (or was itself refused)")
    sys.exit(1)
print("ok: the light client was never refused")
