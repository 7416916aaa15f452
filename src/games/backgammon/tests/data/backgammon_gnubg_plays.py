# Lists GNU Backgammon's legal plays, for src/games/backgammon/tests/rules.rs.
#
# Run by the test as `gnubg -t -q -p backgammon_gnubg_plays.py` with
# KIBITZ_GNUBG_INPUT naming a file of lines `<position id> <die> <die>`
# (the side on roll moves). For each line it prints
# `PLAYS <position id> <die> <die>: <id> <id> ...`, the Position IDs of the
# positions the legal plays lead to (seen from the side that moved,
# before the turn passes), sorted; none when no checker can move.
#
# How the list is had: gnubg's `hint` evaluates every legal play when the
# chequer-play evaluation is 0-ply (its move filters only prune at 1 ply
# and more), and gnubg.hint(n) returns up to n of them: asking for 100000
# returns all (the opening 3-1 gives gnubg's 16 plays). gnubg generates
# plays as distinct resulting positions already. Each hint names its play
# as text ("24/18*/12 6/off(2)"); gnubg.parsemove turns it into (from, to)
# pairs (25 the bar, 0 off) and the few lines below apply them, a checker
# landing on a lone opposing checker hitting it.
import os

import gnubg


def apply(board, pairs):
    theirs, mine = list(board[0]), list(board[1])
    for source, dest in pairs:
        mine[source - 1] -= 1  # 25 is the bar, index 24
        if dest > 0:
            mine[dest - 1] += 1
            # The opponent's own point for our point dest is 25 - dest.
            if theirs[24 - dest] == 1:
                theirs[24 - dest] = 0
                theirs[24] += 1
    return (tuple(theirs), tuple(mine))


gnubg.command('set display off')
gnubg.command('set player 0 human')
gnubg.command('set player 1 human')
gnubg.command('set evaluation chequerplay evaluation plies 0')
gnubg.command('new game')

with open(os.environ['KIBITZ_GNUBG_INPUT']) as lines:
    for line in lines:
        fields = line.split()
        if len(fields) != 3:
            continue
        pid, d1, d2 = fields
        gnubg.command('set board ' + pid)
        board = gnubg.board()
        gnubg.command('set dice %s %s' % (d1, d2))
        try:
            hints = gnubg.hint(100000)['hint']
        except Exception:
            # No legal play: gnubg has no chequer decision to hint.
            hints = []
        ids = sorted(gnubg.positionid(apply(board, gnubg.parsemove(h['move']))) for h in hints)
        print('PLAYS %s %s %s: %s' % (pid, d1, d2, ' '.join(ids)), flush=True)
