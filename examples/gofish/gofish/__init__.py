"""Go Fish, a designer's own game outside tabletape, at level 4 of the Ruleset protocol.

Hands are hidden: the log holds every card dealt and drawn, and `view` shows a seat only its
own hand. Installed through the `tabletape.games` entry point (`pip install -e
examples/gofish`), it has checks and a result (level 2), a view with seat views (level 3),
and legal moves with chance steps, so a random bot plays it (level 4). The rules are in
rules.txt beside this file; `Params` lets a TOML variant change the size of a hand.
"""

from __future__ import annotations

from gofish import rules
from gofish.view import view
from rulesets.protocol import Ruleset, Version

RULESET = Ruleset(name="gofish", title="Go Fish", events=rules.EVENTS, setup=rules.setup, apply=rules.apply,
                  check=rules.check, outcome=rules.outcome, view=view, legal=rules.legal, chance=rules.chance,
                  progress=rules.progress, validate_start=rules.validate_start,
                  versions={"1": Version(id="1", params=rules.Params(), title="five cards each, seven for two players")},
                  resync_span=rules.LONGEST_GAME,
                  example_seats={"a": "ana", "b": "ben"})
