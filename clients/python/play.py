"""Plays one whole match of every game against a running kibitz through the
client that openapi-python-client generates from openapi.yaml: every move is
taken from the match's own legal_moves and every answer is read through the
generated models.

Usage: KIBITZ_URL=http://127.0.0.1:8080 python play.py
(scripts/clients-test.sh generates the kibitz_client package beside it first).
"""

import json
import os
import sys
from collections.abc import Callable

from kibitz_client import AuthenticatedClient, Client
from kibitz_client.api.matches import create_match, get_match, play_match_move
from kibitz_client import models
from kibitz_client.api.analysis import list_games
from kibitz_client.models import (
    MatchCell,
    MatchCommonStatus,
    MatchMoveRequest,
    NineSquareMatchMove,
    PigMatchMove,
    PigMatchMoveAction,
    TicTacToeCreatedMatch,
    TicTacToeNewMatch,
    TicTacToeNewMatchGame,
    TicTacToeNewMatchOptionsType0,
)

# Options that keep a game's match short; a game not here plays its defaults.
QUICK = {
    "pig": {"goal": 50},
    "ishitori": {"remaining": 21},
    "number-square": {"size": 4},
    "othello": {"size": 4},
    "kalah": {"houses": 4, "seeds": 3},
}
# Games whose match starts with the AI.
AI_FIRST = {"connect-four"}
# Pig: roll while the turn total is below this, then hold.
PIG_HOLD_AT = 20


class CheckFailed(Exception):
    pass


def check(ok: bool, what: str) -> None:
    if not ok:
        raise CheckFailed(what)


def choose_move(m):
    """The person's move: the first legal one (Pig: roll or hold by the turn total)."""
    check(m.status == MatchCommonStatus.IN_PROGRESS and m.result is None, f"match {m.id} is in progress")
    legal = m.legal_moves
    check(bool(legal), f"{m.game} offers legal moves: {legal}")
    game = getattr(m.game, "value", m.game)
    if game == "pig":
        actions = [mv.action for mv in legal]
        check(PigMatchMoveAction.HOLD in actions, f"pig offers hold: {actions}")
        roll = m.state.turn_total < PIG_HOLD_AT and PigMatchMoveAction.ROLL in actions
        return PigMatchMove(action=PigMatchMoveAction.ROLL if roll else PigMatchMoveAction.HOLD)
    if game == "nine-square":
        dice = m.state.dice
        check(dice is not None and 1 <= dice <= 6, f"nine-square rolled the person's die: {dice}")
        return NineSquareMatchMove(placements=legal[: min(dice, len(legal))])
    if game == "ishitori":
        check(m.state.remaining_decimal == str(m.state.remaining), f"remaining_decimal: {m.state.to_dict()}")
    return legal[0]


def new_match_models() -> dict:
    """Each game's generated new-match model, by the game's id: every
    `<Game>NewMatch` model has a one-value enum `<Game>NewMatchGame`."""
    found = {}
    for name in dir(models):
        if name.endswith("NewMatchGame"):
            model = getattr(models, name[: -len("Game")], None)
            for member in getattr(models, name):
                found[member.value] = model
    return found


def play_match(base_url: str, game: str, new_match_model) -> str:
    """Plays a match of the catalog's `game` to the end (short options where
    QUICK has them), each move asking only for the history after the ply it
    was made at (`since`); checks that those pieces add up to the whole
    history and that the match ends for a reason."""
    check(new_match_model is not None, f"the generated client has a new-match model for {game}")
    request = new_match_model.from_dict({"game": game, "options": QUICK.get(game), "ai_first": game in AI_FIRST})
    created = create_match.sync_detailed(client=Client(base_url=base_url), body=request)
    check(created.status_code == 201, f"POST /matches answered {created.status_code}: {created.content!r}")
    m = created.parsed
    created_type = type(m)
    check(created_type.__name__.endswith("CreatedMatch") and m.game == game,
          f"the new match is a {game} CreatedMatch: {created_type.__name__}")
    match_type = getattr(models, created_type.__name__.replace("CreatedMatch", "Match"))
    client = AuthenticatedClient(base_url=base_url, token=m.token)
    history = [entry.to_dict() for entry in m.history]
    while m.status == MatchCommonStatus.IN_PROGRESS:
        move = choose_move(m)
        sent = m.ply
        r = play_match_move.sync_detailed(m.id, client=client, since=sent, body=MatchMoveRequest(ply=sent, move=move))
        check(r.status_code == 200, f"{move.to_dict()} at ply {sent} answered {r.status_code}: {r.content!r}")
        nxt = r.parsed
        check(isinstance(nxt, match_type) and nxt.id == m.id, f"the same {match_type.__name__} answers")
        check(nxt.ply > sent, f"ply moves on from {sent} (got {nxt.ply})")
        got = [entry.ply for entry in nxt.history]
        check(got == list(range(sent + 1, nxt.ply + 1)), f"since={sent} gives plies {sent + 1}..{nxt.ply}, got {got}")
        check(nxt.history[0].actor.value == "human", f"the person's move comes first after ply {sent}")
        history += [entry.to_dict() for entry in nxt.history]
        m = nxt
    result = m.result
    check(m.status == MatchCommonStatus.FINISHED and result is not None, f"match {m.id} has a result")
    check(bool(getattr(result.reason, "value", None)), f"{m.game} ended for a reason: {result.to_dict()}")
    check(m.legal_moves is None, "a finished match has no legal moves")

    whole = get_match.sync_detailed(m.id, client=client)
    check(whole.status_code == 200 and isinstance(whole.parsed, match_type), f"GET answered {whole.status_code}")
    check(whole.parsed.ply == m.ply == len(whole.parsed.history), "the whole history has ply entries")
    whole_history = [entry.to_dict() for entry in whole.parsed.history]
    check(json.dumps(whole_history) == json.dumps(history), "the since pieces add up to the whole history")

    late = play_match_move.sync_detailed(m.id, client=client, body=MatchMoveRequest(ply=m.ply, move=move))
    check(late.status_code == 422 and problem_type(late) == "/problems/match-finished",
          f"a move in a finished match is 422 match-finished, got {late.status_code} {late.content!r}")
    return f"{m.game}: {m.ply} plies, winner {result.winner} ({result.reason})"


def problem_type(response) -> str | None:
    """The problem `type` of an error answer, as the generated client read it."""
    return getattr(response.parsed, "type_", None)


def problems(base_url: str) -> str:
    """The match problem types: invalid options, a stale ply, an illegal move."""
    anonymous = Client(base_url=base_url)
    bad = create_match.sync_detailed(
        client=anonymous,
        body=TicTacToeNewMatch(game=TicTacToeNewMatchGame.TICTACTOE, options=TicTacToeNewMatchOptionsType0(rows=40)),
    )
    check(bad.status_code == 422 and problem_type(bad) == "/problems/invalid-options",
          f"rows 40 is 422 invalid-options, got {bad.status_code} {bad.content!r}")
    created = create_match.sync_detailed(client=anonymous, body=TicTacToeNewMatch(game=TicTacToeNewMatchGame.TICTACTOE))
    m = created.parsed
    check(isinstance(m, TicTacToeCreatedMatch), f"POST /matches answered {created.status_code}")
    client = AuthenticatedClient(base_url=base_url, token=m.token)
    stale = play_match_move.sync_detailed(m.id, client=client, body=MatchMoveRequest(ply=m.ply + 1, move=m.legal_moves[0]))
    check(stale.status_code == 409 and problem_type(stale) == "/problems/stale-ply",
          f"a wrong ply is 409 stale-ply, got {stale.status_code} {stale.content!r}")
    off = MatchCell(row=3, col=0)
    illegal = play_match_move.sync_detailed(m.id, client=client, body=MatchMoveRequest(ply=m.ply, move=off))
    check(illegal.status_code == 422 and problem_type(illegal) == "/problems/illegal-move",
          f"a cell off the board is 422 illegal-move, got {illegal.status_code} {illegal.content!r}")
    return "problems: invalid-options, stale-ply, illegal-move"


def main() -> int:
    base_url = os.environ.get("KIBITZ_URL")
    if not base_url:
        print("set KIBITZ_URL to the server's address", file=sys.stderr)
        return 2
    # Every match game of the catalog: a game added to the server is played
    # here without a line of this file changing.
    catalog = list_games.sync(client=Client(base_url=base_url))
    check(catalog is not None, "GET /games answered")
    ids = [g.id for g in catalog.games if g.endpoints.matches]
    check(bool(ids), "the catalog lists match games")
    by_id = new_match_models()
    games: list[tuple[str, Callable[[], str]]] = [
        (game, lambda game=game: play_match(base_url, game, by_id.get(game))) for game in ids
    ] + [
        ("problems", lambda: problems(base_url)),
    ]
    failed = 0
    for name, run in games:
        try:
            print(f"ok {run()}", flush=True)
        except Exception as e:  # a failed check, or an answer the client could not read
            failed += 1
            print(f"FAILED {name}: {type(e).__name__}: {e}", flush=True)
    print(f"python client: {len(games) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
