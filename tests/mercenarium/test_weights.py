"""The heuristic's weights are written once (`bots.STEP` and the rest): its scores, the bounds
that prune its search and the ceiling that ends it early all read them, so a weight changed
there changes them all alike, and the pruned search still finds what its reference policy,
which weighs every event in full, finds."""

from __future__ import annotations

import pytest

from rulesets.memo import last_args_each
from rulesets.mercenarium import bots
from rulesets.mercenarium.bots_reference import REFERENCES
from tests import contract
from tests.mercenarium.scenario import SEATS, R

CHANGED = [
    ("STEP", 6.0), ("LEAVES_THREAT", 60.0), ("ONTO_HOUSE", 45.0), ("STEP_THREATENS", 90.0), ("EXPOSED", 4.0),
    ("REPEATS", 8.0), ("STEP_PER_DISTANCE", 3.0), ("SUMMON_EARLY", 85.0), ("SUMMON", 50.0), ("EARLY_CARDS", 4),
    ("SUMMON_THREATENS", 70.0), ("SUMMON_PER_VALUE", 4.0), ("SUMMON_PER_DISTANCE", 2.5), ("CAPTURE", 10.0),
    ("BUY", 20.0), ("ANNIHILATION", 90.0), ("SONG", 80.0), ("OFFERING", 60.0), ("DRAW_SHORT", 75.0), ("DRAW", 30.0),
    ("SHORT_HAND", 6), ("DISCARD_PER_VALUE", 2.0),
]
"""Each weight moved far enough to change which kind of event wins, and past the ceiling a
capture stood above (whole numbers and halves: sums of them are exact in any order, as the
scores and their bounds add them in different orders)."""


def test_every_weight_changed_is_a_weight_the_heuristic_has() -> None:
    assert all(isinstance(getattr(bots, name), type(value)) for name, value in CHANGED)


@pytest.mark.parametrize(("name", "value"), CHANGED)
def test_with_a_weight_changed_the_pruned_search_still_plays_what_weighing_every_event_plays(
        name: str, value: float, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, name, value)
    # a seat's own actions' best, remembered across games while they are equal: afresh under the new weight
    monkeypatch.setattr(bots, "_rest_choice", last_args_each(bots._rest_choice.__wrapped__))
    compared = 0
    for players, seed in ((2, 1), (3, 2), (4, 3), (2, 4)):
        seats = {seat: seat for seat in SEATS[players]}
        compared += contract.check_bot_plays_as_its_reference(R, "heuristic", REFERENCES["heuristic"], seed, seats=seats)
    assert compared > 100
