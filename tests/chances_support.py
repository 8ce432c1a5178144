"""A Pig game decided early, for the win-chance tests: seat a banks 48 of the 50 it needs
in its first turn, and then both seats roll a 1 turn after turn until a wins."""

from __future__ import annotations

from projections.workspace import Workspace
from tests.cli_support import lines

FORCED = "forced"
FORCING = 17
"""The event that decides it: a holds 48 points, two short of the goal."""
ROUNDS = 14
"""Rounds after it in which both seats roll a 1."""


def forced_game(ws: Workspace, game: str = "pig-bots", match_id: str = FORCED) -> str:
    """Store the game (`game`@short: first to 50) and return its id."""
    ws.new_match(f"{game}@short", {"a": "ana", "b": "ben"}, match_id=match_id)
    sixes = [e for _ in range(8) for e in ({"type": "Rolled", "by": "a"}, {"type": "Landed", "face": 6})]
    ones = [e for _ in range(ROUNDS) for seat in ("b", "a") for e in ({"type": "Rolled", "by": seat}, {"type": "Landed", "face": 1})]
    ending = [{"type": "Rolled", "by": "b"}, {"type": "Landed", "face": 1},
              {"type": "Rolled", "by": "a"}, {"type": "Landed", "face": 2}, {"type": "Held", "by": "a"}]
    ws.append(match_id, lines(*sixes, {"type": "Held", "by": "a"}, *ones, *ending))
    return match_id
