"""Pig (examples/pig, a level-4 game) at the two levels below it, for the tests of what each
level of the Ruleset protocol switches on: the example's own rules, fewer parts.

`pig-replay` is level 1 (setup and apply: a log replays, its state shown as a table) and
`pig-checked` level 2 (check and outcome: every event audited, the result known). The tests
install this package for one test as the distribution `pig-levels` 0.2, beside the example
that `make setup` installs.
"""

from __future__ import annotations

from pig.game import Held, Landed, Params, Rolled, apply, check, outcome, setup

from rulesets.protocol import Ruleset, Version

EVENTS = (Rolled, Landed, Held)
VERSIONS = {"1": Version(id="1", params=Params(), title="first to 20")}

REPLAY = Ruleset(name="pig-replay", events=EVENTS, setup=setup, apply=apply, versions=VERSIONS)
"""Level 1: a log replays, its state shown as a table."""

CHECKED = Ruleset(name="pig-checked", title="Pig, checked", events=EVENTS, setup=setup, apply=apply, check=check,
                  outcome=outcome, versions=VERSIONS, example_seats={"a": "ana", "b": "ben"})
"""Level 2: every event checked, the result known."""
