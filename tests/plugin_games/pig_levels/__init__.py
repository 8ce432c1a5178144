"""Pig (examples/pig, a level-4 game) at the two levels below it, for the tests of what each
level of the Ruleset protocol switches on: the example's own rules, fewer parts.

`pig-replay` is level 1 (setup and apply: a log replays, its state shown as a table) and
`pig-checked` level 2 (check and outcome: every event audited, the result known);
`pig-bots` is the example with a short version (first to 50) and a long one (first to 100),
for the tests of what bots play out between versions, and `pig-scored` the same with
metrics (each seat's banked points and the points at stake), for win chances played a
round ahead and scored;
`pig-track` is the example drawn on a track of the die's six faces, reporting where each
die landed (`places`), as a designer's game with heatmaps. The tests install this package
for one test as the distribution `pig-levels` 0.2, beside the example that `make setup`
installs.
"""

from __future__ import annotations

from dataclasses import replace

import msgspec
from pig.game import (
    Held,
    Landed,
    Params,
    Rolled,
    State,
    apply,
    chance,
    check,
    legal,
    outcome,
    setup,
    view,
)

from rulesets.protocol import Place, Ruleset, Version
from rulesets.view import BoardView, Cell

EVENTS = (Rolled, Landed, Held)
VERSIONS = {"1": Version(id="1", params=Params(), title="first to 20")}

REPLAY = Ruleset(name="pig-replay", events=EVENTS, setup=setup, apply=apply, versions=VERSIONS)
"""Level 1: a log replays, its state shown as a table."""

CHECKED = Ruleset(name="pig-checked", title="Pig, checked", events=EVENTS, setup=setup, apply=apply, check=check,
                  outcome=outcome, versions=VERSIONS, example_seats={"a": "ana", "b": "ben"})
"""Level 2: every event checked, the result known."""


def track(params: Params, state: object, seat: str | None) -> BoardView:
    """The scores beside a track of the die's six faces."""
    faces = tuple(Cell(col=face - 1, row=0, kind="face", label=str(face)) for face in range(1, 7))
    return msgspec.structs.replace(view(params, state, seat), width=6, cells=faces)  # type: ignore[arg-type]


def landed(params: Params, before: object, after: object, event: object) -> tuple[Place, ...]:
    """Where a die landed, on the track."""
    return (Place(what="a die landed", col=event.face - 1, row=0),) if isinstance(event, Landed) and 1 <= event.face <= 6 else ()


TRACK = Ruleset(name="pig-track", title="Pig on a track", events=EVENTS, setup=setup, apply=apply, check=check,
                outcome=outcome, view=track, legal=legal, chance=chance, places=landed, versions=VERSIONS,
                example_seats={"red": "ana", "blue": "ben"})
"""Level 4 with a board and places: heatmaps on the Compare page."""


BOTS = Ruleset(name="pig-bots", title="Pig with bots", events=EVENTS, setup=setup, apply=apply, check=check,
               outcome=outcome, view=view, legal=legal, chance=chance,
               versions={"short": Version(id="short", params=Params(target=50), title="first to 50"),
                         "100": Version(id="100", params=Params(target=100), title="first to 100")},
               example_seats={"a": "ana", "b": "ben"})
"""Level 4 in two versions: the random bot plays it out, simulate and compare-versions run."""


def metrics(params: Params, state: State) -> dict[str, float]:
    """Each seat's banked points, the points at stake this turn, and the first seat's lead."""
    out = {f"banked_{seat}": float(score) for seat, score in zip(state.seats, state.scores, strict=True)}
    out["at_stake"] = float(state.total)
    out["score"] = float(state.scores[0] - max(state.scores[1:], default=0))
    return out


SCORED = replace(BOTS, name="pig-scored", title="Pig with bots and metrics", metrics=metrics)
"""`pig-bots` with metrics: a position can be scored without playing the game out."""
