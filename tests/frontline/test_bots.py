"""Bots play whole games that audit clean, and the heuristic plays better than chance."""

from __future__ import annotations

import pytest

from events.shared import MatchEnded
from projections.corpus.simulate import play
from projections.read.audit import audit
from tests.frontline.scenario import R

RACES = [{"a": "orc", "b": "human"}, {"a": "human", "b": "orc"}, {"a": "orc", "b": "orc"}, {"a": "human", "b": "human"}]


@pytest.mark.parametrize("races", RACES, ids=lambda r: f"{r['a']}-{r['b']}")
@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_every_pairing_of_races_plays_to_a_clean_end(races: dict[str, str], bot: str) -> None:
    events = play(R, {"a": "A", "b": "B"}, seed=3, bot=bot, options={"races": races})
    assert isinstance(events[-1], MatchEnded)
    report = audit(events, R)
    assert report.clean, report.errors[:3]


def test_the_heuristic_beats_the_random_bot_from_either_seat() -> None:
    winners = []
    for seed in range(6):
        bots = {"a": "heuristic", "b": "random"} if seed % 2 else {"a": "random", "b": "heuristic"}
        ended = play(R, {"a": "A", "b": "B"}, seed=seed, bot=bots)[-1]
        assert isinstance(ended, MatchEnded)
        winners.append(bots.get(ended.winner or "", "draw"))
    assert winners.count("heuristic") >= 5, winners


def test_the_heuristic_uses_each_races_unique_research() -> None:
    """Militia for humans, burrows for orcs, once the frontline is in its own half."""
    log = "".join(type(e).__name__ + str(getattr(e, "to", "")) for e in play(R, {"a": "A", "b": "B"}, seed=3, bot="heuristic"))
    assert "WorkersMovedmilitia" in log and "WorkersMovedburrow-" in log
