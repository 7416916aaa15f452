#!/usr/bin/env python3
"""How many 7x6 Connect Four positions of each ply a running kibitz answers
exactly within the default budget (no max_ms), how many of those answers
carry their line of play to the end of the game, and how long they take.

For each ply from --first to --last, random positions that a game reaches
(scripts/connect-four-positions.py, one seed per ply) are sent one at a
time to POST /connect-four/move; an answer counts as exact when `solved` is
true and every playable column says `solved: true`; its line is whole when
`principal_variation` is `plies_to_end` moves long. Prints a Markdown table:
ply, positions, exact, share, whole lines, median and slowest time (ms,
client side).

    scripts/connect-four-plies.py --url http://127.0.0.1:8080 --count 200

Standard library only. A benchmark, not a test: it never runs in CI.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent


# Positions a game reaches after 0, 1 and 2 stones: all of them are asked.
DISTINCT = {1: 7, 2: 49}


def positions(ply, count, seed):
    if ply == 0:
        return [""]
    count = min(count, DISTINCT.get(ply, count))
    out = subprocess.run(
        [sys.executable, str(HERE / "connect-four-positions.py"), "--count", str(count),
         "--min-stones", str(ply), "--max-stones", str(ply), "--seed", str(seed)],
        check=True, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def ask(url, moves):
    body = json.dumps({"moves": moves}).encode()
    request = urllib.request.Request(url + "/connect-four/move", data=body,
                                     headers={"content-type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.load(response)
    return answer, (time.perf_counter() - started) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080")
    ap.add_argument("--count", type=int, default=200, help="positions per ply (default 200)")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--last", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1000, help="seed of ply 0; ply p uses seed + p")
    args = ap.parse_args()
    print("| ply | positions | exact within the budget | share | whole line | median ms | slowest ms |")
    print("|---|---|---|---|---|---|---|")
    for ply in range(args.first, args.last + 1):
        asked = positions(ply, args.count, args.seed + ply)
        exact, whole, times, slowest = 0, 0, [], ("", 0.0)
        for moves in asked:
            answer, ms = ask(args.url, moves)
            columns = [m for m in answer["moves"] if m.get("score") is not None]
            if answer["solved"] and all(m["solved"] for m in columns):
                exact += 1
                whole += len(answer["principal_variation"]) == answer["plies_to_end"]
            times.append(ms)
            if ms > slowest[1]:
                slowest = (moves, ms)
        print(f"| {ply} | {len(asked)} | {exact} | {exact / len(asked):.3f} | {whole} | "
              f"{statistics.median(times):.0f} | {slowest[1]:.0f} (`{slowest[0]}`) |", flush=True)


if __name__ == "__main__":
    main()
