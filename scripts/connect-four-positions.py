#!/usr/bin/env python3
"""Generate random legal, unfinished 7x6 Connect Four positions.

Each position is printed on its own line as a string of 1-based column
digits ("4453" = columns 4, 4, 5, 3 in play order), the notation used by
Pascal Pons' solver (c4solver) and by `kibitz connect-four-scores`.

A position is produced by a uniformly random playout of N stones, with N
drawn uniformly from [--min-stones, --max-stones].  A playout is thrown
away and redrawn if any move completes a line of four (the game would
already be over) or the board is full, so every emitted position is
reachable in a real game and is not finished.  The side to move may
have an immediate win; that is allowed.  Duplicates are skipped.

Output is fully determined by --seed (and the other options).

Standard library only.
"""

import argparse
import random
import sys

WIDTH = 7
HEIGHT = 6
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


def makes_four(board, col, row, player):
    """True if the stone of `player` at (col, row) is part of a line of four."""
    for dc, dr in DIRECTIONS:
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < WIDTH and 0 <= r < HEIGHT and board[c][r] == player:
                run += 1
                c += sign * dc
                r += sign * dr
        if run >= 4:
            return True
    return False


def playout(rng, stones):
    """Try one random playout of `stones` moves; None if the game ended early."""
    board = [[0] * HEIGHT for _ in range(WIDTH)]
    heights = [0] * WIDTH
    moves = []
    player = 1
    for _ in range(stones):
        legal = [c for c in range(WIDTH) if heights[c] < HEIGHT]
        col = rng.choice(legal)
        row = heights[col]
        board[col][row] = player
        heights[col] += 1
        moves.append(col)
        if makes_four(board, col, row, player):
            return None
        player = 3 - player
    return "".join(str(c + 1) for c in moves)


def generate(count, min_stones, max_stones, seed, max_tries_per_position=100000):
    rng = random.Random(seed)
    seen = set()
    out = []
    dup_streak = 0
    while len(out) < count:
        stones = rng.randint(min_stones, max_stones)
        for _ in range(max_tries_per_position):
            pos = playout(rng, stones)
            if pos is not None:
                break
        else:
            raise RuntimeError("could not find an unfinished %d-stone position" % stones)
        if pos in seen:
            dup_streak += 1
            if dup_streak > 10000:
                raise RuntimeError("too few distinct positions for --count %d" % count)
            continue
        dup_streak = 0
        seen.add(pos)
        out.append(pos)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100, help="number of positions (default 100)")
    ap.add_argument("--min-stones", type=int, default=16, help="minimum stones on board (default 16)")
    ap.add_argument("--max-stones", type=int, default=22, help="maximum stones on board (default 22)")
    ap.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = ap.parse_args(argv)

    if not 0 <= args.min_stones <= args.max_stones < WIDTH * HEIGHT:
        ap.error("need 0 <= --min-stones <= --max-stones < %d" % (WIDTH * HEIGHT))
    if args.count < 0:
        ap.error("--count must be >= 0")

    try:
        positions = generate(args.count, args.min_stones, args.max_stones, args.seed)
    except RuntimeError as e:
        sys.exit("connect-four-positions: %s" % e)
    for pos in positions:
        sys.stdout.write(pos + "\n")


if __name__ == "__main__":
    main()
