# GNU Backgammon's cubeless chances for bear-off positions, for
# src/games/backgammon/tests/bearoff.rs.
#
# Run as `gnubg -t -q -p backgammon_gnubg_bearoff.py` with
# KIBITZ_GNUBG_INPUT naming a file of Position IDs, one a line (the side
# on roll to move). For each it prints `EVAL <position id> <P(win)>
# <class>`: gnubg.evaluate's chance that the side on roll wins and
# gnubg.classifypos's class of the position. Debian's gnubg ships only the
# one-sided bear-off database (gnubg_os0.bd): it estimates a two-sided
# bear-off from each side's distribution of the rolls it needs, close to
# the exact value but not equal to it.
import os

import gnubg

with open(os.environ['KIBITZ_GNUBG_INPUT']) as lines:
    for line in lines:
        pid = line.strip()
        if not pid:
            continue
        board = gnubg.positionfromid(pid)
        print('EVAL %s %.9f %d' % (pid, gnubg.evaluate(board)[0], gnubg.classifypos(board)), flush=True)
