# kibitz's bridge to GNU Backgammon (MIT, part of kibitz).
#
# Run inside gnubg's embedded Python (`gnubg -t -q -r -p bridge.py`): kibitz
# only runs gnubg as a separate process and speaks to it through this
# script, one JSON request per line on stdin, one JSON answer per line on
# stdout. The protocol is documented in `mod.rs` beside this file.
#
# gnubg prints its banner and command output on file descriptor 1, so the
# answers go to a private duplicate of it and fd 1 itself is sent to
# /dev/null: nothing but our JSON lines reaches kibitz after `ready`.

import json
import os
import re
import sys
import time

import gnubg

PROTOCOL = 1

_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
_null = os.open(os.devnull, os.O_WRONLY)
os.dup2(_null, 1)


def send(obj):
    _out.write(json.dumps(obj, separators=(",", ":"), allow_nan=False) + "\n")
    _out.flush()


class Invalid(Exception):
    """The request's fault (a bad position, dice, cube): kibitz answers 422."""


ID_RE = re.compile(r"^[A-Za-z0-9+/]{14}$")

# gnubg 1.07's `positionclass` values, as `classifypos` returns them.
CLASSES = {
    0: "over",
    1: "hypergammon",
    2: "hypergammon",
    3: "hypergammon",
    4: "bearoff_two_sided",
    5: "bearoff_two_sided",
    6: "bearoff_one_sided",
    7: "bearoff_one_sided",
    8: "race",
    9: "crashed",
    10: "contact",
}

# gnubg 1.07's `cubedecision` values (as cfevaluate returns them, checked
# against its own text for each): (action, too_good, response, optional).
# A "no redouble" is "no_double": the contract names three actions only.
DECISIONS = {
    0: ("double", False, "take", False),
    1: ("double", False, "pass", False),
    2: ("no_double", False, "take", False),
    3: ("no_double", True, "take", False),
    4: ("no_double", True, "pass", False),
    5: ("double", False, "beaver", False),
    6: ("no_double", False, "beaver", False),
    7: ("redouble", False, "take", False),
    8: ("redouble", False, "pass", False),
    9: ("no_double", False, "take", False),
    10: ("no_double", True, "take", False),
    11: ("no_double", True, "pass", False),
    12: ("no_double", False, "beaver", False),
    13: ("no_double", False, "take", False),
    14: ("no_double", False, "take", False),
    15: ("no_double", False, None, False),
    16: ("double", False, "take", True),
    17: ("redouble", False, "take", True),
    18: ("double", False, "beaver", True),
    19: ("double", False, "pass", True),
    20: ("redouble", False, "pass", True),
}

OWNERS = {"centre": -1, "center": -1, "me": 0, "opponent": 1}


def board_from_id(pid):
    """(opponent, mover): gnubg's board, the side on roll second."""
    if not isinstance(pid, str) or not ID_RE.match(pid):
        raise Invalid("a Position ID is 14 characters of base64 (A-Z a-z 0-9 + /)")
    try:
        board = gnubg.positionfromid(pid)
    except Exception:
        raise Invalid("%s is not a valid Position ID" % pid)
    # gnubg decodes leniently; a non-canonical ID (stray bits) is refused.
    if gnubg.positionid(board) != pid:
        raise Invalid("%s is not a valid Position ID" % pid)
    opp, me = board
    for name, side in (("the side on roll", me), ("the opponent", opp)):
        n = sum(side)
        if n > 15:
            raise Invalid("%s has %d checkers (at most 15)" % (name, n))
        if n == 0:
            raise Invalid("%s has no checker left: the game is over" % name)
    for i in range(24):
        if me[i] and opp[23 - i]:
            raise Invalid("point %d holds checkers of both sides" % (i + 1))
    return board


def integer(value, name, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Invalid("%s must be an integer in %d..%d" % (name, low, high))
    return value


def cube_info(req):
    """gnubg's cube-info for the mover as player 0; sets the global
    Jacoby/beaver rules that `hint` reads."""
    cube = req.get("cube") or {}
    value = integer(cube.get("value", 1), "cube.value", 1, 4096)
    if value & (value - 1):
        raise Invalid("cube.value must be a power of two")
    owner = OWNERS.get(cube.get("owner", "centre"))
    if owner is None:
        raise Invalid("cube.owner is one of me, opponent, centre")
    if owner != -1 and value == 1:
        raise Invalid("an owned cube has been doubled: its value is at least 2")
    match = req.get("match")
    rules = req.get("rules") or {}
    jacoby = bool(rules.get("jacoby", False))
    beavers = bool(rules.get("beavers", False))
    if match:
        length = integer(match.get("length"), "match.length", 1, 64)
        score = match.get("score") or {}
        me = integer(score.get("me", 0), "match.score.me", 0, length - 1)
        them = integer(score.get("opponent", 0), "match.score.opponent", 0, length - 1)
        crawford = bool(match.get("crawford", False))
        if crawford and length - 1 not in (me, them):
            raise Invalid("the Crawford game needs a side at match point")
        # Jacoby and beavers are money-game rules.
        jacoby = beavers = False
        ci = gnubg.cubeinfo(value, owner, 0, length, (me, them), int(crawford), 0)
    else:
        ci = gnubg.cubeinfo(value, owner, 0, 0, (0, 0), 0, 0)
    set_rules(jacoby, beavers)
    ci["jacoby"] = int(jacoby)
    ci["beavers"] = int(beavers)
    return gnubg.calcgammonprice(ci)


_settings = {}


def setting(command):
    """Runs a gnubg `set` command once per change of value."""
    key, _, value = command.rpartition(" ")
    if _settings.get(key) != value:
        gnubg.command(command)
        _settings[key] = value


def set_rules(jacoby, beavers):
    setting("set jacoby %s" % ("on" if jacoby else "off"))
    setting("set beavers %d" % (3 if beavers else 0))


def eval_options(req):
    plies = integer(req.get("plies", 0), "plies", 0, 3)
    noise = req.get("noise", 0.0)
    if isinstance(noise, bool) or not isinstance(noise, (int, float)) or not 0.0 <= noise <= 1.0:
        raise Invalid("noise must be a number in 0..1")
    return plies, float(noise)


def cubeless(probs, ci):
    """The mover's (player 0's) cubeless equity from its probabilities:
    gnubg's utility with the score's gammon prices (all 1 in a money game
    without Jacoby)."""
    w, wg, wb, lg, lb = probs
    (g0, b0), (g1, b1) = ci["gammonprice"]
    return 2 * w - 1 + wg * g0 + wb * b0 - lg * g1 - lb * b1


def probabilities(probs):
    w, wg, wb, lg, lb = probs
    return {"win": w, "win_gammon": wg, "win_backgammon": wb, "lose_gammon": lg, "lose_backgammon": lb}


def mwc(equity, ci):
    return gnubg.eq2mwc(equity, ci) if ci["matchto"] else None


def play(board, steps):
    """The position after `steps` ((from, to), 25 the bar, 0 off) in the
    mover's numbering, as a board with the opponent on roll."""
    opp, me = list(board[0]), list(board[1])
    for frm, to in steps:
        if not (1 <= frm <= 25 and 0 <= to <= 24) or me[frm - 1] == 0:
            raise RuntimeError("gnubg's move %s does not fit the board" % (steps,))
        me[frm - 1] -= 1
        if to:
            if opp[24 - to] == 1:
                opp[24 - to] = 0
                opp[24] += 1
            elif opp[24 - to]:
                raise RuntimeError("gnubg's move %s lands on a made point" % (steps,))
            me[to - 1] += 1
    return (tuple(me), tuple(opp))


def set_position(pid, ci, dice):
    mid = gnubg.matchid(ci, gnubg.posinfo(0, 0, 0, 1, dice))
    gnubg.command("set gnubgid %s:%s" % (pid, mid))
    if gnubg.positionid() != pid or gnubg.matchid() != mid:
        raise RuntimeError("gnubg did not take the position %s:%s" % (pid, mid))


def op_move(req):
    pid = req.get("position")
    board = board_from_id(pid)
    dice = req.get("dice")
    if not isinstance(dice, list) or len(dice) != 2:
        raise Invalid("dice is two integers in 1..6")
    dice = (integer(dice[0], "dice", 1, 6), integer(dice[1], "dice", 1, 6))
    ci = cube_info(req)
    plies, noise = eval_options(req)
    setting("set evaluation chequerplay evaluation plies %d" % plies)
    setting("set evaluation chequerplay evaluation noise %.6f" % noise)
    set_position(pid, ci, dice)
    hint = gnubg.hint(100000).get("hint") or []
    plays = []
    for m in hint:
        text = m["move"]
        steps = [list(s) for s in gnubg.parsemove(text)] if text else []
        after = play(board, steps)
        eq = m["equity"]
        probs = m["details"]["probs"]
        plays.append({
            "move": text,
            "play": steps,
            "position": gnubg.positionid(after),
            "plies": m["context"]["plies"],
            "equity": eq,
            "cubeless_equity": cubeless(probs, ci),
            "mwc": mwc(eq, ci),
            "probabilities": probabilities(probs),
        })
    if not plays:
        # No legal move: the empty play, the position passed to the opponent.
        after = (board[1], board[0])
        ec = {"cubeful": 1, "plies": plies, "deterministic": 1, "prune": 1, "noise": noise}
        theirs = (board[1], board[0])
        oci = dict(ci)
        oci["move"] = 1
        r = gnubg.evaluate(theirs, oci, ec)
        cf = gnubg.cfevaluate(theirs, oci, ec)
        probs = (1 - r[0], r[3], r[4], r[1], r[2])
        plays.append({
            "move": "",
            "play": [],
            "position": gnubg.positionid(after),
            "plies": plies,
            "equity": -cf[0],
            "cubeless_equity": cubeless(probs, ci),
            "mwc": mwc(-cf[0], ci),
            "probabilities": probabilities(probs),
        })
    return {"class": CLASSES.get(gnubg.classifypos(board, 0), "unknown"), "plays": plays}


def before_rolling(req):
    """The position's evaluation for the side on roll, cubeless and
    cubeful, and the fields `cube` and `evaluate` share."""
    board = board_from_id(req.get("position"))
    ci = cube_info(req)
    plies, noise = eval_options(req)
    ec = {"cubeful": 1, "plies": plies, "deterministic": 1, "prune": 1, "noise": noise}
    r = gnubg.evaluate(board, ci, ec)
    cf = gnubg.cfevaluate(board, ci, ec)
    common = {
        "class": CLASSES.get(gnubg.classifypos(board, 0), "unknown"),
        "equity": cf[0],
        "mwc": mwc(cf[0], ci),
        "cubeless_equity": r[5],
        "probabilities": probabilities(r[:5]),
    }
    return cf, common


def op_cube(req):
    cf, answer = before_rolling(req)
    code = cf[4]
    if code not in DECISIONS:
        raise RuntimeError("unknown cube decision %r (%s)" % (code, cf[5]))
    action, too_good, response, optional = DECISIONS[code]
    answer.update({
        "action": action,
        "too_good": too_good,
        "response": response,
        "optional": optional,
        "available": code != 15,
        "text": cf[5],
        "equities": {"no_double": cf[1], "double_take": cf[2], "double_pass": cf[3]},
    })
    return answer


def op_evaluate(req):
    cf, answer = before_rolling(req)
    answer["no_double_equity"] = cf[1]
    return answer


def op_ping(req):
    return {"pong": True}


OPS = {"move": op_move, "cube": op_cube, "evaluate": op_evaluate, "ping": op_ping}


def main():
    # Neither side is gnubg's own player: it must never move by itself.
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    setting("set evaluation chequerplay evaluation deterministic on")
    setting("set evaluation chequerplay evaluation cubeful on")
    # Move filters: the two best 0-ply moves always go on to the deeper
    # plies (gnubg's default, 0, stops at 0-ply when one move stands out,
    # which leaves the chosen play's equity at 0-ply); then up to 8 more
    # within 0.16, and for 3-ply the best two and up to 2 more within 0.04
    # of the 2-ply best.
    for ply in (1, 2, 3):
        gnubg.command("set evaluation movefilter %d 0 2 8 0.16" % ply)
    gnubg.command("set evaluation movefilter 3 2 2 2 0.04")
    send({"ready": True, "protocol": PROTOCOL})
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        line = line.strip()
        if not line:
            continue
        rid = None
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise Invalid("a request is a JSON object")
            rid = req.get("id")
            op = OPS.get(req.get("op"))
            if op is None:
                raise Invalid("op is one of %s" % ", ".join(sorted(OPS)))
            started = time.perf_counter()
            result = op(req)
            result["elapsed_ms"] = (time.perf_counter() - started) * 1000.0
            send({"id": rid, "ok": result})
        except Invalid as e:
            send({"id": rid, "error": "invalid", "message": str(e)})
        except Exception as e:
            send({"id": rid, "error": "internal", "message": "%s: %s" % (type(e).__name__, e)})


main()
