"""Pig, a designer's own game outside tabletape, at three levels of the Ruleset protocol.

Two players take turns. On your turn you roll a die as often as you like: each face adds to
the turn's total, but a 1 loses it and ends the turn. Hold to bank the total. The first to
100 wins. Installed through the `tabletape.games` entry point (the tests write its
dist-info), it shows what each level of the protocol switches on:
`pig-replay` (level 1: setup and apply), `pig` (level 2: check and outcome) and
`pig-bots` (level 4: a view, legal moves and the die's chance, and so a random bot).
"""

from __future__ import annotations

from pig.rules import EVENTS, Params, apply, chance, check, legal, outcome, setup, view
from rulesets.protocol import Ruleset, Version

REPLAY = Ruleset(name="pig-replay", events=EVENTS, setup=setup, apply=apply)
"""Level 1: a log replays, its state shown as a table."""

RULESET = Ruleset(name="pig", title="Pig", events=EVENTS, setup=setup, apply=apply, check=check, outcome=outcome,
                  example_seats={"a": "ana", "b": "ben"})
"""Level 2: every event checked, the result known."""

PLAYABLE = Ruleset(name="pig-bots", title="Pig with bots", events=EVENTS, setup=setup, apply=apply, check=check,
                   outcome=outcome, view=view, legal=legal, chance=chance, example_seats={"a": "ana", "b": "ben"},
                   versions={"short": Version(id="short", params=Params(goal=50), title="first to 50"),
                             "100": Version(id="100", params=Params(), title="first to 100, as written")})
"""Level 4: a board of scores, legal moves and the die, so the random bot plays it; two
versions, so it can be compared with itself."""
