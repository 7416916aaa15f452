#!/usr/bin/env python3
"""A tic-tac-toe match over HTTP, the way a client plays it (standard library
only). Used by scripts/container-test.sh:

  play.py new URL                    start a match; prints "ID TOKEN"
  play.py move URL ID TOKEN [N]      play N moves (default: to the end), each
                                     a best move (minimax), so the match lasts
                                     to a full board; prints the board
  play.py show URL ID TOKEN          prints "STATUS PLY RESULT"

Any answer other than the expected status code, or none within 10 s, is an
error (exit 1).
"""
import json
import sys
import time
import urllib.error
import urllib.request


def call(method, url, body=None, token=None, expect=200):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    if status != expect:
        sys.exit(f"{method} {url}: {status} (expected {expect}): {text}")
    return json.loads(text)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(cells):
    for a, b, c in LINES:
        if cells[a] in "XO" and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def value(cells, me, to_move):
    """The outcome for `me` with best play: 1 win, 0 draw, -1 loss."""
    won = winner(cells)
    if won:
        return 1 if won == me else -1
    free = [i for i, c in enumerate(cells) if c not in "XO"]
    if not free:
        return 0
    other = "O" if to_move == "X" else "X"
    results = []
    for i in free:
        cells[i] = to_move
        results.append(value(cells, me, other))
        cells[i] = "."
    return max(results) if to_move == me else min(results)


def best_cell(board, me):
    cells = list("".join(board))
    other = "O" if me == "X" else "X"
    best = None
    for i, c in enumerate(cells):
        if c in "XO":
            continue
        cells[i] = me
        v = value(cells, me, other)
        cells[i] = c
        if best is None or v > best[0]:
            best = (v, i)
    if best is None:
        sys.exit(f"no free cell on {board}")
    return divmod(best[1], 3)


def main(argv):
    command, base = argv[1], argv[2].rstrip("/")
    if command == "new":
        match = call("POST", f"{base}/matches", {"game": "tictactoe"}, expect=201)
        print(match["id"], match["token"])
    elif command == "move":
        match_id, token = argv[3], argv[4]
        moves = int(argv[5]) if len(argv) > 5 else None
        match = call("GET", f"{base}/matches/{match_id}", token=token)
        played = 0
        while match["status"] == "in_progress" and (moves is None or played < moves):
            row, col = best_cell(match["state"]["board"], match["state"]["human_plays"])
            body = {"ply": match["ply"], "move": {"row": row, "col": col}}
            started = time.monotonic()
            match = call("POST", f"{base}/matches/{match_id}/moves", body, token=token)
            took = time.monotonic() - started
            played += 1
            print(f"ply {match['ply']}: {'/'.join(match['state']['board'])} ({took * 1000:.0f} ms)")
        if moves is not None and played < moves:
            sys.exit(f"the match ended after {played} of {moves} moves")
    elif command == "show":
        match = call("GET", f"{base}/matches/{argv[3]}", token=argv[4])
        print(match["status"], match["ply"], json.dumps(match["result"], separators=(",", ":")))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
